import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The keys a SecretBox seals and opens with: 32 bytes each, the first seals (newest first). */
export type SecretKeys = () => Promise<Buffer[]>;

const version = 'v1';

/**
 * AES-256-GCM for secrets the database keeps but must not reveal (TOTP secrets, issue 41):
 * the key is outside the database (COFFER_MFA_KEYS or `<dataDir>/mfa.key`, wiring/mfa-keys.ts),
 * so a copy of the database or an export does not open them. A sealed value names its key by
 * a fingerprint, so older keys still open what they sealed while a new one seals (rotation,
 * docs/security.md); `stale` tells the caller to seal it again under the newest key.
 */
export class SecretBox {
  readonly #keys: SecretKeys;

  constructor(keys: SecretKeys) {
    this.#keys = keys;
  }

  async seal(plain: string): Promise<string> {
    const [key] = await this.#keys();
    if (!key) throw new Error('no key to seal secrets with');
    // A 96-bit random IV per value (NIST SP 800-38D §8.2.2): far below 2^32 values per key.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [version, fingerprintOf(key), iv.toString('base64url'), body.toString('base64url')].join('.');
  }

  /** The secret; throws when no key of the ring sealed it or the value was altered. */
  async open(sealed: string): Promise<{ plain: string; stale: boolean }> {
    const [tag, fingerprint, iv, body] = sealed.split('.');
    const keys = await this.#keys();
    const index = keys.findIndex((key) => fingerprintOf(key) === fingerprint);
    if (tag !== version || index < 0 || !iv || !body) throw new Error('a sealed secret no key opens');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keys[index]!, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
    return { plain: plain.toString('utf8'), stale: index > 0 };
  }
}

/** Names a key without revealing it: the first 8 bytes of its SHA-256. */
function fingerprintOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}
