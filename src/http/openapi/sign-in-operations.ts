import type { Operation } from './operation.ts';

/** Sign-in with identity providers (issue 37), as the Selfbits SDKs call it. */
export const signInOperations: Record<string, Operation> = {
  'GET /api/v1/oauth/:provider': {
    operationId: 'startProviderSignIn',
    description:
      "Opened in a popup (or a redirect) with no headers: the app id comes as `sb_app_id` (and `sb_app_secret`, checked when sent). Answers 302 to the provider's authorization page, with PKCE (S256), a nonce and Coffer's own state bound to the app's `state`, the project and the provider. `redirectTo` (optional) must be on one of the project's allowed origins. Refusals answer an HTML page in the popup.",
    access: 'public',
    errors: [
      'VALIDATION_FAILED',
      'INVALID_APP_CREDENTIALS',
      'OAUTH_PROVIDER_NOT_FOUND',
      'OAUTH_PROVIDER_UNAVAILABLE',
      'RATE_LIMITED',
    ],
    success: { status: 204, description: '302 to the provider' },
  },
  'GET /api/v1/oauth/:provider/callback': {
    operationId: 'providerSignInCallback',
    description:
      "Where the provider sends the popup back: the code is exchanged and checked (state, issuer, the ID token's signature, audience, nonce and times; RS256, ES256 or EdDSA only). Answers a page that closes its window, or 302 to `redirectTo` with the app's `state`. A state used once, or expired, is refused (an HTML page).",
    access: 'public',
    errors: ['OAUTH_FAILED', 'OAUTH_PROVIDER_NOT_FOUND', 'OAUTH_PROVIDER_UNAVAILABLE'],
    success: { status: 200, description: 'a page that closes its window' },
  },
  'GET /api/v1/oauth/:provider/token': {
    operationId: 'takeProviderSignInToken',
    description:
      "The session of a finished provider sign-in, named by the app's `state`: once, within 5 minutes of the callback, as login answers it. A valid bearer token sent along links the identity to its user (409 IDENTITY_IN_USE if another user holds it); an expired or invalid one is ignored. A new identity creates a user (signup rules apply); an account with the same email is never taken over (409 ACCOUNT_EXISTS) unless the project allows linking by email and both the provider and the account have the address verified.",
    access: 'app',
    errors: [
      'VALIDATION_FAILED',
      'OAUTH_STATE_NOT_FOUND',
      'IDENTITY_IN_USE',
      'ACCOUNT_EXISTS',
      'ACCOUNT_DISABLED',
      'ACCESS_DENIED',
      'RATE_LIMITED',
      'MFA_REQUIRED',
      'MFA_ENROLMENT_REQUIRED',
    ],
    success: { status: 200, description: 'The session' },
  },
  'DELETE /api/v1/oauth/:provider/unlink': {
    operationId: 'unlinkProvider',
    description:
      "Removes the caller's identity at the provider (204 also when there was none); 409 LAST_SIGN_IN_METHOD when it is the user's only way to sign in.",
    access: 'user',
    errors: ['LAST_SIGN_IN_METHOD'],
    success: { status: 204, description: 'Unlinked' },
  },
};
