import type { Operation } from './operation.ts';

/** Passkeys (issue 41): WebAuthn registration and sign-in, the options and answers as JSON. */
export const passkeyOperations: Record<string, Operation> = {
  'POST /api/v1/auth/passkey/options': {
    operationId: 'passkeySignInOptions',
    description:
      "Options for `navigator.credentials.get` (give them to `startAuthentication` of `@simplewebauthn/browser`): a challenge good once, for 5 minutes, user verification required. With an `email`, `allowCredentials` lists that account's passkeys; an unknown email (or an account without passkeys) gets the same shape, a stand-in id derived from it. Without one, the browser offers the discoverable passkeys of the project's RP ID (`passkeyRpId`, else the host of its first allowed origin).",
    access: 'app',
    errors: ['VALIDATION_FAILED', 'RATE_LIMITED'],
    success: { status: 200, component: 'PasskeyOptions' },
  },
  'POST /api/v1/auth/passkey': {
    operationId: 'signInWithPasskey',
    description:
      "Signs in with the browser's answer (`startAuthentication`'s result as `response`) and answers as login does. The challenge is the one inside the signed client data, taken once; the origin must be one of the project's allowed origins. A passkey sign-in is two factors in itself: it never answers MFA_REQUIRED. Refusals are 401 INVALID_LOGIN and count toward the login limits.",
    access: 'app',
    errors: ['VALIDATION_FAILED', 'INVALID_LOGIN', 'ACCOUNT_DISABLED', 'EMAIL_NOT_VERIFIED', 'RATE_LIMITED'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/user/passkeys/options': {
    operationId: 'passkeyRegistrationOptions',
    description:
      "Options for `navigator.credentials.create` (give them to `startRegistration` of `@simplewebauthn/browser`): resident key and user verification preferred, the caller's passkeys excluded, a user handle of random bytes (never the email). Also accepts the enrolment token of MFA_ENROLMENT_REQUIRED. At most 10 passkeys per user (409 PASSKEY_LIMIT_REACHED).",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'PASSKEY_LIMIT_REACHED'],
    success: { status: 200, component: 'PasskeyOptions' },
  },
  'POST /api/v1/user/passkeys': {
    operationId: 'registerPasskey',
    description:
      "Registers the passkey of the browser's answer (`startRegistration`'s result as `response`), with an optional `name`; its challenge must be one the caller was given, unused and under 5 minutes old. Emits `user.passkey_added`.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'PASSKEY_LIMIT_REACHED'],
    success: { status: 201, component: 'Passkey' },
  },
  'GET /api/v1/user/passkeys': {
    operationId: 'listPasskeys',
    description: "The caller's passkeys, oldest first (never a key or a credential id).",
    access: 'user',
    errors: [],
    success: { status: 200 },
  },
  'DELETE /api/v1/user/passkeys/:id': {
    operationId: 'removePasskey',
    description: "Removes one of the caller's passkeys: it signs in no more. Emits `user.passkey_removed`.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    success: { status: 204, description: 'Removed' },
  },
};
