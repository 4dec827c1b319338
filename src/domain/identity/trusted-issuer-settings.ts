import { validationFailed } from '../../errors/errors.ts';
import { assertSettingUrl, entryNamePattern, isNamedStringTable } from './named-table-checks.ts';
import { parseRoleNames } from './setting-parsers.ts';

/** One trusted issuer as the operator set it (`trustedIssuers.<name>.<field>=…`). */
export type TrustedIssuerSetting = Readonly<Partial<Record<TrustedIssuerField, string>>>;

/** A project's trusted token issuers (issue 37, item 4): name → what the operator set. */
export type TrustedIssuerTable = Readonly<Record<string, TrustedIssuerSetting>>;

const fields = ['issuer', 'jwksUrl', 'audience', 'roleClaim', 'roles'] as const;
type TrustedIssuerField = (typeof fields)[number];

const namePattern = entryNamePattern;
const settingPrefix = 'trustedIssuers.';
/** Every bearer token of a project with issuers is matched against them: keep the list short. */
export const maxTrustedIssuers = 8;

/** An issuer ready to vouch for bearer tokens: its `iss`, where its keys are, the `aud` it must name. */
export type TrustedIssuer = {
  name: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  /** The claim whose value picks the user's role, among `roles`; undefined: every user is `user`. */
  roleClaim?: string;
  /** The roles `roleClaim` may grant (an admin role only if listed here). */
  roles: readonly string[];
};

export function isTrustedIssuerSettingName(settingName: string): boolean {
  return settingName.startsWith(settingPrefix);
}

/**
 * `trustedIssuers.<name>.<field>=value` sets a field, `…<field>=` clears it, `trustedIssuers.<name>=`
 * removes the issuer. Two names may not share one `iss`: a token's `iss` picks its issuer.
 */
export function assignTrustedIssuerSetting(
  table: TrustedIssuerTable,
  settingName: string,
  text: string,
): TrustedIssuerTable {
  const [name = '', field, ...rest] = settingName.slice(settingPrefix.length).split('.');
  if (!namePattern.test(name) || rest.length > 0)
    throw validationFailed(
      `${settingName}: write trustedIssuers.<name>.<${fields.join('|')}>=… (a name is 1–32 of a-z, 0-9 and -)`,
    );
  const next: Record<string, TrustedIssuerSetting> = { ...table };
  if (field === undefined) {
    if (text !== '')
      throw validationFailed(`${settingName}: set one field at a time; trustedIssuers.${name}= removes it`);
    delete next[name];
    return next;
  }
  if (!(fields as readonly string[]).includes(field))
    throw validationFailed(`${settingName}: a trusted issuer's fields are ${fields.join(', ')}`);
  const value = toFieldValue(field as TrustedIssuerField, text.trim(), settingName);
  const issuer: Record<string, string> = { ...next[name] };
  if (value === '') delete issuer[field];
  else issuer[field] = value;
  next[name] = issuer;
  if (Object.keys(next).length > maxTrustedIssuers)
    throw validationFailed(`a project trusts at most ${maxTrustedIssuers} token issuers`);
  if (field === 'issuer' && value !== '') {
    const other = Object.keys(next).find((key) => key !== name && next[key]?.issuer === value);
    if (other) throw validationFailed(`${settingName}: trustedIssuers.${other} already has this issuer`);
  }
  return next;
}

function toFieldValue(field: TrustedIssuerField, value: string, settingName: string): string {
  if (value === '') return value;
  if (value.length > 2048) throw validationFailed(`${settingName}: at most 2048 characters`);
  if (field === 'jwksUrl') assertSettingUrl(value, settingName);
  // Stored as the canonical list, so the table stays strings (as oauth's) and reads back as set.
  if (field === 'roles') return parseRoleNames(value, settingName).join(',');
  return value;
}

export function isTrustedIssuerTable(value: unknown): value is TrustedIssuerTable {
  return isNamedStringTable(value, maxTrustedIssuers, fields);
}

/**
 * The complete issuer whose `iss` is `iss`: one with issuer, jwksUrl and audience set (a
 * half-configured one vouches for nobody).
 */
export function findTrustedIssuer(table: TrustedIssuerTable, iss: string): TrustedIssuer | undefined {
  for (const name in table) {
    const setting = table[name];
    if (setting?.issuer !== iss || !setting.jwksUrl || !setting.audience) continue;
    return {
      name,
      issuer: setting.issuer,
      jwksUrl: setting.jwksUrl,
      audience: setting.audience,
      ...(setting.roleClaim && { roleClaim: setting.roleClaim }),
      roles: setting.roles ? setting.roles.split(',') : [],
    };
  }
  return undefined;
}
