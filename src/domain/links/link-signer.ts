import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { invalidSignature, linkExpired } from '../../errors/errors.ts';

/**
 * What a link allows. security: the operation is part of the signed string, so a download
 * link can never be replayed as an upload link for the same file, nor the other way round.
 * `resume` links name a resumable upload (their `fileId` is the upload's id); `render` links
 * a rendition of a file (issue 21), its canonical spec signed with it; `upload-version` links
 * a new version's upload (issue 38; their `fileId` is the version upload's id); `archive` links
 * one ZIP of many files (issue 40; their `fileId` is the archive's id). `resume-verify` links
 * are `resume` links whose upload is verified when its last byte lands (issue 43, tus
 * `verify=true`): the operation is signed, so no holder of the URL can add or drop the verify.
 */
export type LinkOperation =
  | 'upload'
  | 'download'
  | 'resume'
  | 'resume-verify'
  | 'render'
  | 'upload-version'
  | 'archive'
  /** An admission hook's read of pending bytes (issue 42): the file id, the version id, the expiry. */
  | 'admit'
  /**
   * Uppy's `@uppy/aws-s3` (issue 43): the answer to its CreateMultipartUpload (the upload Coffer
   * started), and its CompleteMultipartUpload, which Coffer completes and verifies.
   */
  | 'multipart-start'
  | 'multipart-complete';

export type HmacKey = { id: string; secret: Buffer };

export type LinkClaims = {
  operation: LinkOperation;
  fileId: string;
  expiresAt: number;
  /**
   * The file's links generation when a download link was issued (docs/security.md,
   * "Revoking links"): a revocation moves the file's generation on, and a link of an older one
   * stops. Absent in links issued before generations existed, which count as generation 0.
   */
  generation?: number;
  /** `render` links: the canonical rendition spec (domain/renditions/rendition-spec.ts). */
  rendition?: string;
  /** Download links: the version they were issued for (issue 38); absent: the current one. */
  version?: string;
};
export type LinkSignature = { keyId: string; signature: string };

/**
 * Versions of the canonical string; a new one whenever the string changes shape. v1 links (no
 * generation) stay valid until they expire; v2 adds the links generation; v3 (renditions) the
 * canonical spec after it; v4 (download links since issue 38) the version after it.
 */
const canonicalVersions = {
  withoutGeneration: 'coffer-link-v1',
  withGeneration: 'coffer-link-v2',
  withRendition: 'coffer-link-v3',
  withVersion: 'coffer-link-v4',
} as const;

/**
 * The exact bytes that are signed: one field per line, so no field can bleed into another.
 * security: each shape has its own version line, so a v2 link stripped of its generation is a
 * v1 string with another signature, never the same claims.
 */
export function toCanonicalString(claims: LinkClaims): string {
  const { operation, fileId, expiresAt, generation, rendition, version } = claims;
  if (version !== undefined)
    return `${canonicalVersions.withVersion}\n${operation}\n${fileId}\n${expiresAt}\n${generation ?? 0}\n${version}`;
  if (rendition !== undefined)
    return `${canonicalVersions.withRendition}\n${operation}\n${fileId}\n${expiresAt}\n${generation ?? 0}\n${rendition}`;
  if (generation === undefined)
    return `${canonicalVersions.withoutGeneration}\n${operation}\n${fileId}\n${expiresAt}`;
  return `${canonicalVersions.withGeneration}\n${operation}\n${fileId}\n${expiresAt}\n${generation}`;
}

/**
 * Signs and checks link claims with HMAC-SHA256. The newest key signs; every listed key
 * verifies, chosen by its id, so keys can rotate without breaking links already handed out.
 */
export class LinkSigner {
  readonly #signingKey: HmacKey;
  readonly #keysById: Map<string, KeyObject>;
  readonly #signed = new LRUCache<string, string>({ max: 10_000 });

  constructor(keys: readonly HmacKey[]) {
    const [newest] = keys;
    if (!newest) throw new Error('LinkSigner needs at least one key');
    this.#signingKey = newest;
    // KeyObjects made once: createHmac converts a Buffer key on every call (~30 µs vs ~4 µs).
    this.#keysById = new Map(keys.map((key) => [key.id, createSecretKey(key.secret)]));
  }

  sign(claims: LinkClaims): LinkSignature {
    const keyId = this.#signingKey.id;
    return { keyId, signature: this.#hmac(keyId, this.#keysById.get(keyId)!, claims) };
  }

  /**
   * Throws INVALID_SIGNATURE unless the signature is right for these claims, then LINK_EXPIRED
   * once `nowSeconds` is past expiresAt. The signature is checked first: an expiry that was
   * tampered with is a bad signature, not an expired link.
   */
  assertValid(claims: LinkClaims, given: LinkSignature, nowSeconds: number): void {
    const secret = this.#keysById.get(given.keyId);
    if (!secret) throw invalidSignature();
    // security: the signature's text is compared, not its decoded bytes: a decoder forgives
    // padding, the standard alphabet, junk and the unused low bits of the last character, so
    // one signature would have many spellings. Only the signer's own spelling is accepted.
    const expected = Buffer.from(this.#hmac(given.keyId, secret, claims), 'utf8');
    const actual = Buffer.from(given.signature, 'utf8');
    // security: constant-time comparison, so the signature cannot be guessed byte by byte.
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw invalidSignature();
    if (nowSeconds > claims.expiresAt) throw linkExpired();
  }

  /**
   * The signature of the claims under a key, remembered: under load one file's links repeat
   * within a second (the same expiry) and a popular link is downloaded again and again, so the
   * HMAC of the same text would be computed each time. Bounded: claims come from clients too.
   */
  #hmac(keyId: string, secret: KeyObject, claims: LinkClaims): string {
    const text = toCanonicalString(claims);
    const key = `${keyId}\n${text}`;
    let signature = this.#signed.get(key);
    if (signature === undefined) {
      signature = createHmac('sha256', secret).update(text).digest('base64url');
      this.#signed.set(key, signature);
    }
    return signature;
  }
}
