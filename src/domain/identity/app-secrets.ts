import { createHash, hash, timingSafeEqual } from 'node:crypto';

// App secrets are 256 random bits, so a fast hash is enough to keep them useless if the
// database leaks: there is nothing to brute-force. Passwords, chosen by people, use argon2id.

/** The form an app secret is stored in: SHA-256, hex. */
export function hashAppSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Compares a presented secret with the stored hash in constant time. Every request with a
 * secret pays this, so it uses the one-shot `crypto.hash` (no Hash object per call).
 */
export function isAppSecretValid(secret: string, storedHash: string): boolean {
  const actual = hash('sha256', secret, 'buffer');
  const expected = Buffer.from(storedHash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}
