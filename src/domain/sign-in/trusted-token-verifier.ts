import type { TrustedIssuer } from '../identity/trusted-issuer-settings.ts';

/** A trusted issuer's token once its signature and claims are checked; `sub` is always a string. */
export type TrustedClaims = Readonly<Record<string, unknown>> & { readonly sub: string };

/**
 * Checks a JWT against its trusted issuer (issue 37, item 4): the signature by the issuer's JWKS,
 * `iss`, `aud`, `exp` and `nbf` (60 s of skew), asymmetric algorithms only. Throws INVALID_TOKEN,
 * TOKEN_EXPIRED, or UNAVAILABLE when the issuer's keys cannot be fetched.
 */
export interface TrustedTokenVerifier {
  verify(issuer: TrustedIssuer, token: string, now: Date): Promise<TrustedClaims>;
}
