import { createRemoteJWKSet, customFetch, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { TrustedIssuer } from '../domain/identity/trusted-issuer-settings.ts';
import type {
  TrustedClaims,
  TrustedTokenCheck,
  TrustedTokenVerifier,
} from '../domain/sign-in/trusted-token-verifier.ts';
import type { ProviderFetch } from './provider-fetch.ts';

/** Asymmetric only (issue 37): never `none`, never HMAC, whose key a JWKS would hand to anyone. */
const acceptedAlgorithms = ['RS256', 'ES256', 'EdDSA'];
/** Seconds of clock skew allowed on `exp` and `nbf` (issue 37). */
const clockToleranceSeconds = 60;
/** An unknown `kid` fetches the JWKS again at most this often (issue 37: once a minute). */
const cooldownMs = 60_000;

/** jose's errors that say the keys are fine and the token is not (the rest come from fetching keys). */
const tokenErrorCodes = new Set(['ERR_JWKS_NO_MATCHING_KEY', 'ERR_JWKS_MULTIPLE_MATCHING_KEYS']);

/**
 * Trusted issuers' tokens checked with jose: one remote key set per JWKS URL, kept while its
 * URL is configured anywhere (bounded), fetched through the identity providers' guarded fetch
 * (SSRF guard and deadline), refreshed by jose every 10 minutes and on an unknown `kid` at most
 * once a minute.
 */
export class JoseTrustedTokenVerifier implements TrustedTokenVerifier {
  readonly #fetch: ProviderFetch;
  readonly #timeoutMs: number;
  readonly #keySets = new LRUCache<string, JWTVerifyGetKey>({ max: 256 });

  constructor(options: { fetch: ProviderFetch; timeoutSeconds: number }) {
    this.#fetch = options.fetch;
    this.#timeoutMs = options.timeoutSeconds * 1000;
  }

  async verify(issuer: TrustedIssuer, token: string, now: Date): Promise<TrustedTokenCheck> {
    try {
      const { payload } = await jwtVerify(token, this.#keySetOf(issuer.jwksUrl), {
        issuer: issuer.issuer,
        audience: issuer.audience,
        algorithms: acceptedAlgorithms,
        clockTolerance: clockToleranceSeconds,
        currentDate: now,
        // A token without `exp` would never end; without `sub` it names nobody.
        requiredClaims: ['sub', 'exp'],
      });
      return { claims: payload as TrustedClaims };
    } catch (error) {
      if (error instanceof KeysUnavailable) return { refusal: 'keysUnavailable', cause: error.cause };
      if (error instanceof errors.JWTExpired) return { refusal: 'expired' };
      return { refusal: 'invalid', cause: error };
    }
  }

  #keySetOf(jwksUrl: string): JWTVerifyGetKey {
    let keySet = this.#keySets.get(jwksUrl);
    if (!keySet) {
      const remote = createRemoteJWKSet(new URL(jwksUrl), {
        cooldownDuration: cooldownMs,
        timeoutDuration: this.#timeoutMs,
        [customFetch]: this.#fetch,
      });
      // jose resolves the key only once the header's alg is allowed: alg none or HS256 never
      // fetch anything. What fails here besides a missing key is the issuer's JWKS endpoint.
      keySet = async (header, token) => {
        try {
          return await remote(header, token);
        } catch (error) {
          if (error instanceof errors.JOSEError && tokenErrorCodes.has(error.code)) throw error;
          throw new KeysUnavailable(error);
        }
      };
      this.#keySets.set(jwksUrl, keySet);
    }
    return keySet;
  }
}

class KeysUnavailable extends Error {
  constructor(cause: unknown) {
    super("the issuer's JWKS could not be fetched", { cause });
  }
}
