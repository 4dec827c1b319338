import type { Setting } from '../setting.ts';

/** Sign-in with identity providers (issue 37): the guard on calls to providers, and the limits a stranger meets. */
export const signInSettings = {
  oauthAllowPrivate: {
    env: 'COFFER_OAUTH_ALLOW_PRIVATE',
    kind: 'boolean',
    defaultValue: false,
    doc: "Whether identity providers (and trusted issuers' JWKS) may be on loopback, private or other non-public addresses, and over plain http (refused by default, as webhooks are: a guard against requests into your network). For tests, or an identity provider inside your network.",
  },
  oauthTimeoutSeconds: {
    env: 'COFFER_OAUTH_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 10,
    min: 1,
    max: 60,
    doc: 'The longest one call to an identity provider may take (discovery, code exchange, user API, keys); past it the sign-in fails with 502 OAUTH_PROVIDER_UNAVAILABLE.',
  },
  oauthFlowsPerAddressPerHour: {
    env: 'COFFER_OAUTH_FLOWS_PER_ADDRESS_PER_HOUR',
    kind: 'integer',
    defaultValue: 60,
    min: 1,
    doc: 'Provider sign-ins one client address may start an hour per project, and as many token fetches and passkey sign-in options; past it 429 RATE_LIMITED.',
  },
  mfaKeys: {
    env: 'COFFER_MFA_KEYS',
    kind: 'string',
    secret: true,
    doc: 'The keys that encrypt TOTP secrets at rest (AES-256-GCM): base64 of 32 random bytes each, comma-separated, the first encrypts, the others still decrypt (rotation, docs/security.md). Unset: `<dataDir>/mfa.key` (created 0600 on first use); set it when several nodes share one database.',
  },
} as const satisfies Record<string, Setting>;
