import { createHash, hash, timingSafeEqual } from 'node:crypto';

// App secrets are 256 random bits, so a fast hash is enough to keep them useless if the
// database leaks: there is nothing to brute-force. Passwords, chosen by people, use argon2id.

/** The form an app secret is stored in: SHA-256, hex. */
export function hashAppSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Compares a presented secret with the stored hash in constant time. */
export function isAppSecretValid(secret: string, storedHash: string): boolean {
  const actual = hash('sha256', secret, 'buffer');
  const expected = Buffer.from(storedHash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/**
 * Checks app secrets against their credential, remembering the last secret that matched each
 * credential object: every server call presents the same secret, and comparing it costs less
 * than hashing it (the hash was ~2.5% of the hot path). Keyed by the object, so a credential
 * read again (its cache was invalidated: it may have been revoked) starts with nothing remembered.
 */
export class AppSecretCheck {
  readonly #matched = new WeakMap<{ secretHash: string }, Buffer>();

  isValid(credential: { secretHash: string }, secret: string): boolean {
    const presented = Buffer.from(secret, 'utf8');
    const matched = this.#matched.get(credential);
    // security: constant time, against a secret that already matched the stored hash.
    if (matched && matched.length === presented.length && timingSafeEqual(matched, presented)) return true;
    if (!isAppSecretValid(secret, credential.secretHash)) return false;
    this.#matched.set(credential, presented);
    return true;
  }
}
