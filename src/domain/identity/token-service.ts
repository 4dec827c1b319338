import { createSigner, createVerifier } from 'fast-jwt';
import { LRUCache } from 'lru-cache';
import { invalidToken, tokenExpired } from '../../errors/errors.ts';
import type { HmacKey } from '../links/link-signer.ts';

/** security: the one algorithm tokens are signed and accepted with; `none` and RS/HS confusion cannot happen. */
const algorithm = 'HS256';
const issuer = 'coffer';

/**
 * `sessionId` (claim `sid`): the refresh-token family the token was issued with; the token
 * works while that family lives (refresh-token-service.ts, `isLive`).
 */
export type TokenClaims = { userId: string; projectId: string; sessionId: string };
export type IssuedToken = { token: string; expiresAt: number };
/** A verified token's claims and its `exp` (Unix seconds): what may end with it (an event stream). */
export type VerifiedClaims = TokenClaims & { expiresAt: number };

/**
 * Issues and checks access tokens (JWT, HS256). `sub` is the user, `aud` the project, so a
 * token only works with its own project's app credentials; `iat`, `exp` and `iss` are required.
 */
export class TokenService {
  readonly #sign: (payload: Record<string, unknown>) => string;
  readonly #verifiers: Map<string, (token: string) => Record<string, unknown>>;
  readonly #ttlSeconds: number;
  /**
   * Tokens this service verified, by their exact text, with what they say: a client sends one
   * token with every call, and looking its text up costs far less than fast-jwt's own cache
   * (a SHA-256 of the token for its key) and parse. Keys come from clients, so it is bounded;
   * a retired key makes a new service (wiring/identity-services.ts), and this goes with it.
   */
  readonly #verified = new LRUCache<string, { claims: TokenClaims; expiresAt: number }>({ max: 10_000 });

  constructor(options: { keys: readonly HmacKey[]; ttlSeconds: number }) {
    const [newest] = options.keys;
    if (!newest) throw new Error('TokenService needs at least one key');
    this.#ttlSeconds = options.ttlSeconds;
    this.#sign = createSigner({ key: newest.secret, algorithm, kid: newest.id, iss: issuer });
    this.#verifiers = new Map(
      options.keys.map((key) => [
        key.id,
        createVerifier({
          key: key.secret,
          algorithms: [algorithm],
          allowedIss: issuer,
          requiredClaims: ['sub', 'iat', 'exp', 'iss', 'aud'],
          // Expiry is checked in verify() against the service clock (fast-jwt's clock is fixed
          // when the verifier is made).
          ignoreExpiration: true,
        }),
      ]),
    );
  }

  /** `ttlSeconds`: the project's own lifetime (settings.accessTokenLifetimeSeconds), else the server's. */
  issue(claims: TokenClaims, nowSeconds: number, ttlSeconds = this.#ttlSeconds): IssuedToken {
    const expiresAt = nowSeconds + ttlSeconds;
    const payload = { sub: claims.userId, aud: claims.projectId, iat: nowSeconds, exp: expiresAt };
    const token = this.#sign({ ...payload, sid: claims.sessionId });
    return { token, expiresAt };
  }

  /**
   * Throws INVALID_TOKEN, or TOKEN_EXPIRED once `nowSeconds` is past the token's `exp`;
   * otherwise answers who the token speaks for, and in which session.
   */
  verify(token: string, nowSeconds: number): VerifiedClaims {
    const known = this.#verified.get(token);
    if (known) {
      if (nowSeconds > known.expiresAt) throw tokenExpired();
      return { ...known.claims, expiresAt: known.expiresAt };
    }
    const verifier = this.#verifiers.get(readKeyId(token));
    if (!verifier || !hasCanonicalSignature(token)) throw invalidToken();
    let payload: Record<string, unknown>;
    try {
      payload = verifier(token);
    } catch {
      throw invalidToken();
    }
    const { sub, aud, exp, iat, sid } = payload;
    if (typeof sub !== 'string' || typeof aud !== 'string') throw invalidToken();
    if (!Number.isSafeInteger(exp) || !Number.isSafeInteger(iat)) throw invalidToken();
    if (nowSeconds > (exp as number)) throw tokenExpired();
    // security: a token without a session could not be ended by logout or a password change.
    // Every token issued since sessions exist names one (older ones have long expired).
    if (typeof sid !== 'string') throw invalidToken();
    const claims = { userId: sub, projectId: aud, sessionId: sid };
    this.#verified.set(token, { claims, expiresAt: exp as number });
    return { ...claims, expiresAt: exp as number };
  }
}

/** An HMAC-SHA256 signature in base64url: 32 bytes are 43 characters, without padding. */
const signatureLength = 43;

/**
 * security: fast-jwt decodes the signature leniently (padding, the standard alphabet, junk,
 * the unused low bits of the last character), which gives one token many spellings. Only the
 * signer's spelling is accepted: the text must be what encoding its own bytes gives back.
 */
function hasCanonicalSignature(token: string): boolean {
  const signature = token.slice(token.lastIndexOf('.') + 1);
  return (
    signature.length === signatureLength &&
    Buffer.from(signature, 'base64url').toString('base64url') === signature
  );
}

// Every token of a key shares one header, so its parse is remembered (bounded: headers come
// from clients).
const keyIdsByHeader = new Map<string, string>();

/** The `kid` of the token's header, or '' when the token is not a readable JWT. */
function readKeyId(token: string): string {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot > 512) return '';
  const header = token.slice(0, dot);
  let keyId = keyIdsByHeader.get(header);
  if (keyId === undefined) {
    keyId = parseKeyId(header);
    if (keyIdsByHeader.size >= 1000) keyIdsByHeader.clear();
    keyIdsByHeader.set(header, keyId);
  }
  return keyId;
}

function parseKeyId(header: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return typeof parsed?.kid === 'string' ? parsed.kid : '';
  } catch {
    return '';
  }
}
