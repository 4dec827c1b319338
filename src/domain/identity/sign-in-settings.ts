import { validationFailed } from '../../errors/errors.ts';
import { isOAuthProviderTable, type OAuthProviderTable } from './oauth-provider-settings.ts';
import { booleanSetting, type SettingDefinition } from './setting-parsers.ts';
import { isTrustedIssuerTable, type TrustedIssuerTable } from './trusted-issuer-settings.ts';

/** The project settings of sign-in with providers and trusted issuers (issue 37), spread into project-settings.ts. */
export type SignInSettings = {
  /** Sign-in providers (issue 37), set as `oauth.<name>.<field>=…`; secrets never shown back. */
  oauth: OAuthProviderTable;
  /**
   * Whether a provider sign-in whose verified email matches an existing, verified account links
   * to it; false: 409 ACCOUNT_EXISTS, and the user links from a signed-in session.
   */
  oauthLinkByEmail: boolean;
  /**
   * Issuers whose JWTs are bearer tokens (issue 37, item 4), set as
   * `trustedIssuers.<name>.<issuer|jwksUrl|audience|roleClaim|roles>=…`.
   */
  trustedIssuers: TrustedIssuerTable;
};

export const defaultSignInSettings: Readonly<SignInSettings> = Object.freeze({
  oauth: {},
  oauthLinkByEmail: false,
  trustedIssuers: {},
});

export const signInSettingDefinitions: Record<keyof SignInSettings, SettingDefinition> = {
  oauth: {
    description:
      'sign-in providers, set one field at a time as oauth.<name>.<clientId|clientSecret|issuer|authorizationUrl|tokenUrl|userinfoUrl>=…; presets: google, apple, microsoft, gitlab, github; oauth.<name>= removes one',
    parse: (_text, name) => {
      throw validationFailed(`${name} is set one field at a time: oauth.google.clientId=…`);
    },
    isValid: isOAuthProviderTable,
  },
  oauthLinkByEmail: booleanSetting(
    'whether a provider sign-in with a verified email links to the verified account of that email (else 409 ACCOUNT_EXISTS)',
  ),
  trustedIssuers: {
    description:
      'issuers whose JWTs are bearer tokens, set one field at a time as trustedIssuers.<name>.<issuer|jwksUrl|audience|roleClaim|roles>=… (roles: comma-separated roles roleClaim may grant); trustedIssuers.<name>= removes one',
    parse: (_text, name) => {
      throw validationFailed(`${name} is set one field at a time: trustedIssuers.acme.issuer=…`);
    },
    isValid: isTrustedIssuerTable,
  },
};
