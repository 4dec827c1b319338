import { validationFailed } from '../../errors/errors.ts';
import { booleanSetting, type SettingDefinition } from './setting-parsers.ts';

/**
 * The project settings of account controls (issue 41): second factors, passkeys and leaving.
 * A group of its own, spread into project-settings.ts, so the core table stays readable.
 */
export type AccountControlSettings = {
  /** Whether every password sign-in must enrol a second factor first (403 MFA_ENROLMENT_REQUIRED). */
  requireMfa: boolean;
  /**
   * The WebAuthn relying party ID passkeys are bound to: a host name that is a registrable
   * suffix of every allowed origin's host. null: the host of the first allowed origin.
   */
  passkeyRpId: string | null;
  /** Whether users may delete their own account (`DELETE /api/v1/user`). */
  selfDeletion: boolean;
};

export const defaultAccountControlSettings: Readonly<AccountControlSettings> = Object.freeze({
  requireMfa: false,
  passkeyRpId: null,
  selfDeletion: true,
});

/** A DNS host name in lower case (no port, no scheme): what WebAuthn takes as an RP ID. */
const hostNamePattern =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

function parseRpId(text: string, name: string): string | null {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'none') return null;
  if (!hostNamePattern.test(value))
    throw validationFailed(`${name} must be a host name such as example.com (no scheme, no port), or none`);
  return value;
}

export const accountControlSettingDefinitions: Record<keyof AccountControlSettings, SettingDefinition> = {
  requireMfa: booleanSetting(
    'whether every password sign-in must enrol a second factor (TOTP or a passkey) first',
  ),
  passkeyRpId: {
    description:
      "the host name passkeys are bound to, a suffix of every allowed origin's host (e.g. example.com); none: the first allowed origin's host",
    parse: parseRpId,
    isValid: (value) => value === null || (typeof value === 'string' && hostNamePattern.test(value)),
  },
  selfDeletion: booleanSetting('whether users may delete their own account (DELETE /api/v1/user)'),
};
