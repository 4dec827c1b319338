import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { etagFromSha256 } from './content-etag.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

it("is the quoted first 128 bits of the SHA-256, in hex: an MD5 ETag's shape", () => {
  // FIPS 180-2's test vectors: SHA-256("") = e3b0c442…b855, SHA-256("abc") = ba7816bf…15ad.
  assert.equal(etagFromSha256(sha256('')), '"e3b0c44298fc1c149afbf4c8996fb924"');
  assert.equal(etagFromSha256(sha256('abc')), '"ba7816bf8f01cfea414140de5dae2223"');
  assert.match(etagFromSha256(sha256('any bytes')), /^"[0-9a-f]{32}"$/);
});

it('refuses a digest that is not a SHA-256', () => {
  assert.throws(() => etagFromSha256(createHash('md5').update('abc').digest()), TypeError);
});
