/**
 * The entity tag the local stores (disk, memory) give a version: the first 128 bits of the
 * SHA-256 of its bytes, in hex and quoted, the shape of an MD5 ETag. The spec asks only for a
 * quoted string as the store returned it (DESIGN.md), and uploads compute the SHA-256 anyway
 * (the file's checksum): tagging with it hashes each uploaded byte once, not twice. Versions
 * tagged with their MD5 before keep that tag: a record stores its tag, nothing recomputes it.
 */
export function etagFromSha256(sha256: Buffer): string {
  if (sha256.length !== 32) throw new TypeError(`a SHA-256 digest has 32 bytes, not ${sha256.length}`);
  return `"${sha256.subarray(0, 16).toString('hex')}"`;
}
