import { LRUCache } from 'lru-cache';
import * as oidc from 'openid-client';
import type { OAuthProvider } from '../domain/identity/oauth-provider-settings.ts';
import {
  type AuthorizationSecrets,
  type ProviderClient,
  ProviderError,
  type ProviderIdentity,
} from '../domain/sign-in/provider-client.ts';
import { finishGitHubStyle, gitHubStyleAuthorizationUrl } from './oauth2-user-api.ts';
import type { ProviderFetch } from './provider-fetch.ts';

/** ID token algorithms Coffer accepts (issue 37): asymmetric only, never `none` or HMAC. */
const acceptedAlgorithms = ['RS256', 'ES256', 'EdDSA'] as const;

/** How far ahead of Coffer's clock an ID token's `iat` may be (as trusted issuers' tokens: 60 s). */
const clockSkewSeconds = 60;

/** A provider's discovered metadata is kept this long (its keys are fetched by kid as needed). */
const discoveryTtlMs = 60 * 60 * 1000;

/**
 * The identity providers' side of a sign-in, with openid-client: OpenID Connect discovery, the
 * authorization URL (PKCE S256, nonce, state), and the code exchange, whose checks (state,
 * `iss` of the response, the ID token's signature by the provider's JWKS, issuer, audience,
 * nonce, `exp`, `nbf`) are openid-client's; an `iat` in the future is refused here. OAuth 2.0
 * providers without OpenID Connect (GitHub) go through oauth2-user-api.ts. Every call uses the
 * guarded fetch.
 */
export class OidcProviderClient implements ProviderClient {
  readonly #fetch: ProviderFetch;
  readonly #allowInsecure: boolean;
  readonly #timeoutSeconds: number;
  readonly #configs = new LRUCache<string, Promise<oidc.Configuration>>({ max: 256, ttl: discoveryTtlMs });

  constructor(options: { fetch: ProviderFetch; allowInsecure: boolean; timeoutSeconds: number }) {
    this.#fetch = options.fetch;
    this.#allowInsecure = options.allowInsecure;
    this.#timeoutSeconds = options.timeoutSeconds;
  }

  async authorizationUrl(provider: OAuthProvider, secrets: AuthorizationSecrets): Promise<URL> {
    const challenge = await oidc.calculatePKCECodeChallenge(secrets.codeVerifier);
    if (provider.kind === 'oauth2') return gitHubStyleAuthorizationUrl(provider, secrets, challenge);
    const config = await this.#configFor(provider);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: secrets.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: secrets.state,
      nonce: secrets.nonce,
    });
  }

  async finish(
    provider: OAuthProvider,
    callbackUrl: URL,
    secrets: AuthorizationSecrets,
  ): Promise<ProviderIdentity> {
    if (provider.kind === 'oauth2') return finishGitHubStyle(provider, callbackUrl, secrets, this.#fetch);
    const config = await this.#configFor(provider);
    try {
      const tokens = await oidc.authorizationCodeGrant(
        config,
        callbackUrl,
        {
          pkceCodeVerifier: secrets.codeVerifier,
          expectedNonce: secrets.nonce,
          expectedState: secrets.state,
          idTokenExpected: true,
        },
        { redirect_uri: secrets.redirectUri },
      );
      const claims = tokens.claims();
      if (!claims) throw new ProviderError('the provider answered no ID token');
      // openid-client checks `exp` and `nbf` but only the presence of `iat`: a token issued in the
      // future is refused here (issue 37), with the skew Coffer allows trusted issuers.
      if (claims.iat > Math.floor(Date.now() / 1000) + clockSkewSeconds)
        throw new ProviderError('the ID token\'s "iat" (issued at) is in the future');
      // Many providers keep the address out of the ID token when an access token comes along
      // (OpenID Connect Core 5.4): the user info endpoint, checked to be about the same `sub`, has it.
      if (claims.email === undefined && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        return toIdentity({
          ...info,
          ...claims,
          email: info.email,
          email_verified: info.email_verified,
          name: claims.name ?? info.name,
        });
      }
      return toIdentity(claims);
    } catch (error) {
      throw toProviderError(error);
    }
  }

  /** The provider's configuration, discovered once an hour; a failed discovery is not kept. */
  #configFor(provider: OAuthProvider & { kind: 'oidc' }): Promise<oidc.Configuration> {
    const key = JSON.stringify([provider.issuer, provider.clientId, provider.clientSecret]);
    let config = this.#configs.get(key);
    if (!config) {
      config = this.#discover(provider);
      this.#configs.set(key, config);
      config.catch(() => this.#configs.delete(key));
    }
    return config;
  }

  async #discover(provider: OAuthProvider & { kind: 'oidc' }): Promise<oidc.Configuration> {
    try {
      const discovered = await oidc.discovery(
        new URL(provider.issuer),
        provider.clientId,
        undefined,
        oidc.ClientSecretPost(provider.clientSecret),
        {
          [oidc.customFetch]: this.#fetch as oidc.CustomFetch,
          timeout: this.#timeoutSeconds,
          execute: this.#allowInsecure ? [oidc.allowInsecureRequests] : [],
        },
      );
      const supported = discovered.serverMetadata().id_token_signing_alg_values_supported ?? ['RS256'];
      const algorithm = acceptedAlgorithms.find((one) => supported.includes(one));
      if (!algorithm)
        throw new ProviderError('the provider signs ID tokens with no algorithm Coffer accepts');
      // openid-client then refuses an ID token signed with any other algorithm (none and HMAC included).
      const config = new oidc.Configuration(
        discovered.serverMetadata(),
        provider.clientId,
        { id_token_signed_response_alg: algorithm },
        oidc.ClientSecretPost(provider.clientSecret),
      );
      config[oidc.customFetch] = this.#fetch as oidc.CustomFetch;
      config.timeout = this.#timeoutSeconds;
      if (this.#allowInsecure) oidc.allowInsecureRequests(config);
      // openid-client trusts an ID token from the token endpoint by TLS alone (OpenID Connect
      // Core 3.1.3.7 allows it) and checks its signature only when told: Coffer checks it against
      // the provider's JWKS (issue 37), so a token endpoint's answer is believed only if signed.
      oidc.enableNonRepudiationChecks(config);
      return config;
    } catch (error) {
      throw toProviderError(error, true);
    }
  }
}

function toIdentity(claims: { sub: string; [claim: string]: unknown }): ProviderIdentity {
  const email = typeof claims.email === 'string' ? claims.email : null;
  const name = typeof claims.name === 'string' ? claims.name : undefined;
  return {
    subject: claims.sub,
    email,
    emailVerified: email !== null && claims.email_verified === true,
    displayName: (name ?? email?.split('@')[0] ?? claims.sub).slice(0, 200),
  };
}

/** What went wrong, as the sign-in page says it: refused by checks, or the provider unreachable. */
function toProviderError(error: unknown, discovery = false): ProviderError {
  if (error instanceof ProviderError) return error;
  const code = (error as { code?: unknown })?.code;
  const unreachable =
    discovery ||
    code === 'OAUTH_TIMEOUT' ||
    code === 'OAUTH_ABORT' ||
    (error instanceof Error &&
      (error.name === 'TypeError' || error.name === 'AbortError' || error.name === 'TimeoutError'));
  // An OAuth error answer (invalid_grant…) says more than openid-client's generic message.
  const body = error as { error?: unknown; error_description?: unknown };
  const detail =
    typeof body?.error === 'string'
      ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`
      : undefined;
  const message = detail ?? (error instanceof Error ? describe(error) : String(error));
  return new ProviderError(message, { unreachable, cause: error });
}

/**
 * openid-client's messages are generic ("unexpected JWT claim value encountered"); the check that
 * failed is named by its cause (oauth4webapi's: `unexpected JWT "aud" (audience) claim value`).
 * Those are fixed sentences, never the token's content, so the page may show them.
 */
function describe(error: Error): string {
  const cause = error.cause;
  if (error.name === 'ClientError' && cause instanceof Error && cause.message !== error.message)
    return `${error.message}: ${cause.message}`;
  return error.message;
}
