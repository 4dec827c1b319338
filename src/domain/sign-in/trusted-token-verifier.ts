import type { TrustedIssuer } from '../identity/trusted-issuer-settings.ts';

/** A trusted issuer's token once its signature and claims are checked; `sub` is always a string. */
export type TrustedClaims = Readonly<Record<string, unknown>> & { readonly sub: string };

/**
 * What checking a token found: its claims, or why not: `expired`, `invalid` (anything else wrong
 * with it), `keysUnavailable` (the issuer's JWKS could not be fetched: the token may be good).
 */
export type TrustedTokenCheck =
  | { claims: TrustedClaims }
  | { refusal: 'invalid' | 'expired' | 'keysUnavailable'; cause?: unknown };

/**
 * Checks a JWT against its trusted issuer (issue 37, item 4): the signature by the issuer's JWKS,
 * `iss`, `aud`, `exp` and `nbf` (60 s of skew), asymmetric algorithms only.
 */
export interface TrustedTokenVerifier {
  verify(issuer: TrustedIssuer, token: string, now: Date): Promise<TrustedTokenCheck>;
}
