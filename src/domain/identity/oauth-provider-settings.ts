import { validationFailed } from '../../errors/errors.ts';
import { assertSettingUrl, entryNamePattern, isNamedStringTable } from './named-table-checks.ts';

/** One provider of a project as the operator set it (`oauth.<name>.<field>=…`). */
export type OAuthProviderSetting = Readonly<Partial<Record<OAuthField, string>>>;

/** A project's sign-in providers: name → what the operator set. */
export type OAuthProviderTable = Readonly<Record<string, OAuthProviderSetting>>;

const fields = ['clientId', 'clientSecret', 'issuer', 'authorizationUrl', 'tokenUrl', 'userinfoUrl'] as const;
type OAuthField = (typeof fields)[number];
const urlFields: ReadonlySet<OAuthField> = new Set(['issuer', 'authorizationUrl', 'tokenUrl', 'userinfoUrl']);

const namePattern = entryNamePattern;
const settingPrefix = 'oauth.';
/** More than any app offers on one sign-in screen; the table is read with every flow. */
export const maxProviders = 16;

/**
 * What a provider name fills in when the operator does not (issue 37): the OpenID Connect
 * issuers of Google, Apple, Microsoft (personal and work accounts) and GitLab, and GitHub's
 * OAuth 2.0 endpoints (GitHub has no OpenID Connect for users: its user API says who signed in).
 * An operator's own `issuer` (or GitHub URL) overrides a preset's, which is how tests point a
 * preset at a local provider.
 */
export const providerPresets: Readonly<Record<string, OAuthProviderSetting>> = {
  google: { issuer: 'https://accounts.google.com' },
  apple: { issuer: 'https://appleid.apple.com' },
  microsoft: { issuer: 'https://login.microsoftonline.com/consumers/v2.0' },
  gitlab: { issuer: 'https://gitlab.com' },
  github: {
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userinfoUrl: 'https://api.github.com/user',
  },
};

/** A provider ready to sign users in: OpenID Connect by discovery, or OAuth 2.0 and a user API. */
export type OAuthProvider = { name: string; clientId: string; clientSecret: string } & (
  | { kind: 'oidc'; issuer: string }
  | { kind: 'oauth2'; authorizationUrl: string; tokenUrl: string; userinfoUrl: string }
);

/** Whether a project setting's name names a provider's field (`oauth.<name>.<field>`) or a whole provider. */
export function isOAuthSettingName(settingName: string): boolean {
  return settingName.startsWith(settingPrefix);
}

/** `oauth.<name>.<field>=value` sets a field, `oauth.<name>.<field>=` clears it, `oauth.<name>=` removes the provider. */
export function assignOAuthSetting(
  table: OAuthProviderTable,
  settingName: string,
  text: string,
): OAuthProviderTable {
  const [name = '', field, ...rest] = settingName.slice(settingPrefix.length).split('.');
  if (!namePattern.test(name) || rest.length > 0)
    throw validationFailed(
      `${settingName}: write oauth.<name>.<${fields.join('|')}>=… (a name is 1–32 of a-z, 0-9 and -)`,
    );
  const next: Record<string, OAuthProviderSetting> = { ...table };
  if (field === undefined) {
    if (text !== '')
      throw validationFailed(
        `${settingName}: set one field at a time (oauth.${name}.clientId=…); oauth.${name}= removes it`,
      );
    delete next[name];
    return next;
  }
  if (!(fields as readonly string[]).includes(field))
    throw validationFailed(`${settingName}: a provider's fields are ${fields.join(', ')}`);
  const value = text.trim();
  if (value !== '' && urlFields.has(field as OAuthField)) assertSettingUrl(value, settingName);
  if (value.length > 2048) throw validationFailed(`${settingName}: at most 2048 characters`);
  const provider: Record<string, string> = { ...next[name] };
  if (value === '') delete provider[field];
  else provider[field] = value;
  next[name] = provider;
  if (Object.keys(next).length > maxProviders)
    throw validationFailed(`a project has at most ${maxProviders} sign-in providers`);
  return next;
}

export function isOAuthProviderTable(value: unknown): value is OAuthProviderTable {
  return isNamedStringTable(value, maxProviders, fields);
}

/** The provider as the flow uses it, presets filled in; undefined while it lacks an id, a secret or endpoints. */
export function resolveOAuthProvider(table: OAuthProviderTable, name: string): OAuthProvider | undefined {
  const own = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!own?.clientId || !own.clientSecret) return undefined;
  const preset = Object.hasOwn(providerPresets, name) ? providerPresets[name] : {};
  const merged = { ...preset, ...own };
  const base = { name, clientId: own.clientId, clientSecret: own.clientSecret };
  if (merged.authorizationUrl && merged.tokenUrl && merged.userinfoUrl && !own.issuer)
    return {
      ...base,
      kind: 'oauth2',
      authorizationUrl: merged.authorizationUrl,
      tokenUrl: merged.tokenUrl,
      userinfoUrl: merged.userinfoUrl,
    };
  return merged.issuer ? { ...base, kind: 'oidc', issuer: merged.issuer } : undefined;
}

/** The table as operators see it back: every secret replaced by `(set)` (issue 37: never shown in clear). */
export function maskOAuthTable(table: OAuthProviderTable): OAuthProviderTable {
  return Object.fromEntries(
    Object.entries(table).map(([name, provider]) => [
      name,
      provider.clientSecret === undefined ? provider : { ...provider, clientSecret: '(set)' },
    ]),
  );
}
