import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../errors/app-error.ts';
import { LinkSigner, toCanonicalString } from './link-signer.ts';

const key1 = {
  id: 'k1',
  secret: Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex'),
};
const key2 = {
  id: 'k2',
  secret: Buffer.from('ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100', 'hex'),
};
const claims = { operation: 'download', fileId: 'AAAAAAAAAAAAAAAAAAAAAA', expiresAt: 1795312800 } as const;
const now = 1795312000; // a fixed clock, before expiresAt

const code = (fn: () => void) => {
  try {
    fn();
    return 'OK';
  } catch (error) {
    return isAppError(error) ? error.code : String(error);
  }
};

describe('LinkSigner', () => {
  // The vectors were computed with openssl (printf 'coffer-link-v1\n…' | openssl dgst -sha256 -mac HMAC), not by this code.
  it('signs a versioned canonical string (golden vectors)', () => {
    assert.equal(toCanonicalString(claims), 'coffer-link-v1\ndownload\nAAAAAAAAAAAAAAAAAAAAAA\n1795312800');
    const signer = new LinkSigner([key1]);
    assert.deepEqual(signer.sign(claims), {
      keyId: 'k1',
      signature: 'm1i79L6dV16hoTLc-ZSEHALv0WN1o4w1BsZVAocmVuA',
    });
    assert.deepEqual(signer.sign({ ...claims, operation: 'upload' }), {
      keyId: 'k1',
      signature: 'thoZ-FD2xbKyjqWsrxB9VXcWnqkygzyidpSAycvqQeI',
    });
  });

  it('signs the links generation of download links in a v2 string (golden vector)', () => {
    const withGeneration = { ...claims, generation: 7 };
    assert.equal(
      toCanonicalString(withGeneration),
      'coffer-link-v2\ndownload\nAAAAAAAAAAAAAAAAAAAAAA\n1795312800\n7',
    );
    const signer = new LinkSigner([key1]);
    const signed = signer.sign(withGeneration);
    assert.deepEqual(signed, { keyId: 'k1', signature: 'H9YuJem8pg9hT25tnbrSnnVqylbYB5NEXvmYfR0w13E' });
    assert.equal(
      code(() => signer.assertValid(withGeneration, signed, now)),
      'OK',
    );
    // Another generation, or none (a link issued before generations), is another string.
    for (const other of [{ ...claims, generation: 8 }, { ...claims, generation: 0 }, claims])
      assert.equal(
        code(() => signer.assertValid(other, signed, now)),
        'INVALID_SIGNATURE',
      );
  });

  it('accepts its own signature until expiresAt, then says LINK_EXPIRED', () => {
    const signer = new LinkSigner([key1]);
    const signature = signer.sign(claims);
    assert.equal(
      code(() => signer.assertValid(claims, signature, now)),
      'OK',
    );
    assert.equal(
      code(() => signer.assertValid(claims, signature, claims.expiresAt)),
      'OK',
    );
    assert.equal(
      code(() => signer.assertValid(claims, signature, claims.expiresAt + 1)),
      'LINK_EXPIRED',
    );
  });

  it('refuses a download link used as an upload link, another file, a moved expiry', () => {
    const signer = new LinkSigner([key1]);
    const signature = signer.sign(claims);
    assert.equal(
      code(() => signer.assertValid({ ...claims, operation: 'upload' }, signature, now)),
      'INVALID_SIGNATURE',
    );
    assert.equal(
      code(() => signer.assertValid({ ...claims, fileId: 'BBBBBBBBBBBBBBBBBBBBBB' }, signature, now)),
      'INVALID_SIGNATURE',
    );
    // security: a later expiry is a forgery, even once the real one has passed
    assert.equal(
      code(() => signer.assertValid({ ...claims, expiresAt: claims.expiresAt + 999 }, signature, now)),
      'INVALID_SIGNATURE',
    );
    assert.equal(
      code(() =>
        signer.assertValid(
          claims,
          {
            keyId: 'k1',
            signature: `${signature.signature.startsWith('A') ? 'B' : 'A'}${signature.signature.slice(1)}`,
          },
          now,
        ),
      ),
      'INVALID_SIGNATURE',
    );
    assert.equal(
      code(() => signer.assertValid(claims, { keyId: 'k1', signature: '' }, now)),
      'INVALID_SIGNATURE',
    );
    assert.equal(
      code(() => signer.assertValid(claims, { keyId: 'nope', signature: signature.signature }, now)),
      'INVALID_SIGNATURE',
    );
  });

  it("accepts only the signer's own spelling of a signature", () => {
    const signer = new LinkSigner([key1]);
    const { signature } = signer.sign(claims); // m1i79L6dV16hoTLc-ZSEHALv0WN1o4w1BsZVAocmVuA
    const spellings = {
      'padded with =': `${signature}=`,
      'the standard alphabet': signature.replace(/-/g, '+').replace(/_/g, '/'),
      'junk appended': `${signature}!`,
      // 'A' → 'B' changes only the 2 unused low bits of the last character: same bytes
      'the unused low bits of the last character': `${signature.slice(0, -1)}B`,
      'a non-ASCII lookalike of the last character': `${signature.slice(0, -1)}\u0141`,
    };
    for (const [name, spelling] of Object.entries(spellings)) {
      assert.deepEqual(
        Buffer.from(spelling, 'base64url').subarray(0, 31),
        Buffer.from(signature, 'base64url').subarray(0, 31),
      );
      assert.equal(
        code(() => signer.assertValid(claims, { keyId: 'k1', signature: spelling }, now)),
        'INVALID_SIGNATURE',
        name,
      );
    }
  });

  it('rotates keys: the newest signs, older ones still verify', () => {
    const old = new LinkSigner([key1]).sign(claims);
    const rotated = new LinkSigner([key2, key1]);
    assert.equal(rotated.sign(claims).keyId, 'k2');
    assert.equal(
      code(() => rotated.assertValid(claims, old, now)),
      'OK',
    );
    assert.equal(
      code(() => new LinkSigner([key2]).assertValid(claims, old, now)),
      'INVALID_SIGNATURE',
    );
  });
});
