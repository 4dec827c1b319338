import type { OAuthProvider } from '../identity/oauth-provider-settings.ts';

/** Who a provider says signed in (issue 37): its subject, and what it tells of the person. */
export type ProviderIdentity = {
  /** The provider's stable id of the person (`sub`, GitHub's numeric id). */
  subject: string;
  email: string | null;
  /** The provider asserts the address is the person's (`email_verified`, GitHub's verified primary). */
  emailVerified: boolean;
  displayName: string;
};

/** What one authorization carries from its start to its callback. */
export type AuthorizationSecrets = {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
};

/** Talks to identity providers: where to send the user, and what the callback's code proves. */
export interface ProviderClient {
  /** The provider's authorization URL for this flow (PKCE S256, nonce, Coffer's state). */
  authorizationUrl(provider: OAuthProvider, secrets: AuthorizationSecrets): Promise<URL>;
  /**
   * Exchanges the callback's code and checks what comes back (state, issuer, ID token's
   * signature, audience, nonce and times), answering the identity; throws ProviderError.
   */
  finish(provider: OAuthProvider, callbackUrl: URL, secrets: AuthorizationSecrets): Promise<ProviderIdentity>;
}

/** A sign-in the provider refused or could not complete: `unreachable` when it could not be asked. */
export class ProviderError extends Error {
  readonly unreachable: boolean;

  constructor(message: string, options: { unreachable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.unreachable = options.unreachable ?? false;
  }
}
