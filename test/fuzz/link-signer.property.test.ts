import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type LinkClaims, type LinkSignature, LinkSigner } from '../../src/domain/links/link-signer.ts';
import { isAppError } from '../../src/errors/app-error.ts';
import { propertyParameters } from '../support/fuzz-settings.ts';

const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const key = fc.record({
  id: fc.string({ unit: fc.constantFrom(...base64url), minLength: 1, maxLength: 12 }),
  secret: fc.uint8Array({ minLength: 16, maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
});
const generation = fc.integer({ min: 0, max: 10 ** 12 });
const claims: fc.Arbitrary<LinkClaims> = fc.record(
  {
    operation: fc.constantFrom('upload', 'download'),
    // Server ids in practice; any text here, newlines included, must not let fields bleed.
    fileId: fc.oneof(
      fc.string({ unit: fc.constantFrom(...base64url), minLength: 1, maxLength: 24 }),
      fc.string({ unit: 'grapheme', maxLength: 24 }),
    ),
    expiresAt: fc.integer({ min: 0, max: 10 ** 12 }),
    // Download links carry their file's links generation; links issued before have none.
    generation,
  },
  { requiredKeys: ['operation', 'fileId', 'expiresAt'] },
);

/** The claims with the generation dropped, or added (as 0, what a link without one counts as). */
function toggledGeneration(original: LinkClaims): LinkClaims {
  const { generation: present, ...rest } = original;
  return present === undefined ? { ...rest, generation: 0 } : rest;
}

/** The code an assertValid call ends with: OK, or the AppError code it threw. */
function outcome(signer: LinkSigner, claimed: LinkClaims, given: LinkSignature, nowSeconds: number): string {
  try {
    signer.assertValid(claimed, given, nowSeconds);
    return 'OK';
  } catch (error) {
    assert.ok(isAppError(error), `assertValid throws AppErrors only, not ${error}`);
    return error.code;
  }
}

/** A single change to claims: another operation, file id or expiry. */
const changedClaims = (original: LinkClaims) =>
  fc.oneof(
    fc.constant({ ...original, operation: original.operation === 'upload' ? 'download' : 'upload' } as const),
    fc.string({ maxLength: 24 }).map((fileId) => ({ ...original, fileId })),
    fc.integer({ min: 0, max: 10 ** 12 }).map((expiresAt) => ({ ...original, expiresAt })),
    generation.map((changed) => ({ ...original, generation: changed })),
    fc.constant(toggledGeneration(original)),
  );

/** Changes that alter the bytes a base64url signature decodes to: a character, a cut, an insertion. */
function byteChangingEdits(signature: string) {
  const at = fc.nat({ max: signature.length - 1 });
  return fc
    .oneof(
      fc
        .tuple(at, fc.constantFrom(...base64url))
        .map(([i, character]) => signature.slice(0, i) + character + signature.slice(i + 1)),
      at.map((i) => signature.slice(0, i) + signature.slice(i + 1)),
      fc
        .tuple(at, fc.constantFrom(...base64url))
        .map(([i, c]) => signature.slice(0, i) + c + signature.slice(i)),
      fc.constant(''),
    )
    .filter((edited) => !Buffer.from(edited, 'base64url').equals(Buffer.from(signature, 'base64url')));
}

/** Any other spelling at all: junk, padding, the standard alphabet, case, spaces, a flipped padding bit. */
function anyOtherSpelling(signature: string) {
  const at = fc.nat({ max: signature.length - 1 });
  const last = signature.at(-1)!;
  const flippedPadding = base64url[base64url.indexOf(last) ^ 1]!;
  return fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 4 }).map((junk) => signature + junk),
      fc.constantFrom(`${signature}=`, `${signature}==`, ` ${signature}`, `${signature}\n`),
      fc.constant(Buffer.from(signature, 'base64url').toString('base64')),
      fc.constant(signature.slice(0, -1) + flippedPadding),
      at.map((i) => signature.slice(0, i) + signature[i]!.toUpperCase() + signature.slice(i + 1)),
      fc
        .tuple(at, fc.string({ maxLength: 2 }))
        .map(([i, text]) => signature.slice(0, i) + text + signature.slice(i + 1)),
    )
    .filter((spelling) => spelling !== signature);
}

describe('link signing (property)', () => {
  it('sign → verify round-trips until expiresAt, then LINK_EXPIRED; any key rotation keeps old links', () => {
    fc.assert(
      fc.property(
        key,
        key,
        claims,
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        (oldKey, newKey, signed, offset) => {
          fc.pre(oldKey.id !== newKey.id);
          const signature = new LinkSigner([oldKey]).sign(signed);
          assert.equal(signature.keyId, oldKey.id);
          const now = signed.expiresAt + offset;
          const expected = offset > 0 ? 'LINK_EXPIRED' : 'OK';
          assert.equal(outcome(new LinkSigner([oldKey]), signed, signature, now), expected);
          // A newer key signs, the old one still verifies.
          assert.equal(outcome(new LinkSigner([newKey, oldKey]), signed, signature, now), expected);
          assert.equal(outcome(new LinkSigner([newKey]), signed, signature, now), 'INVALID_SIGNATURE');
        },
      ),
      propertyParameters('links: round trip', 500),
    );
  });

  it('any single change to the claims is INVALID_SIGNATURE, expired or not', () => {
    const changed = claims.chain((signed) => fc.tuple(fc.constant(signed), changedClaims(signed)));
    fc.assert(
      fc.property(key, changed, fc.boolean(), (k, [signed, claimed], late) => {
        fc.pre(JSON.stringify(signed) !== JSON.stringify(claimed));
        const signer = new LinkSigner([k]);
        const now = late ? Math.max(signed.expiresAt, claimed.expiresAt) + 1 : 0;
        assert.equal(outcome(signer, claimed, signer.sign(signed), now), 'INVALID_SIGNATURE');
      }),
      propertyParameters('links: changed claims', 500),
    );
  });

  it('a change to the key id or to the signature bytes is INVALID_SIGNATURE', () => {
    const case_ = fc.tuple(key, claims).chain(([k, signed]) => {
      const signature = new LinkSigner([k]).sign(signed);
      return fc.tuple(
        fc.constant(k),
        fc.constant(signed),
        fc.oneof(
          byteChangingEdits(signature.signature).map((edited) => ({ ...signature, signature: edited })),
          fc.string({ maxLength: 12 }).map((keyId) => ({ ...signature, keyId })),
        ),
      );
    });
    fc.assert(
      fc.property(case_, ([k, signed, given]) => {
        fc.pre(given.keyId !== k.id || given.signature !== new LinkSigner([k]).sign(signed).signature);
        assert.equal(outcome(new LinkSigner([k]), signed, given, 0), 'INVALID_SIGNATURE');
      }),
      propertyParameters('links: changed signature bytes', 500),
    );
  });

  // Defect 10 (canonical links): every spelling but the issued one is refused, even those that
  // decode to the same bytes.
  it('only the issued spelling of a signature is accepted (canonical links)', () => {
    const case_ = fc.tuple(key, claims).chain(([k, signed]) => {
      const signature = new LinkSigner([k]).sign(signed);
      return fc.tuple(fc.constant(k), fc.constant(signed), anyOtherSpelling(signature.signature));
    });
    fc.assert(
      fc.property(case_, ([k, signed, spelling]) => {
        const given = { keyId: k.id, signature: spelling };
        assert.equal(outcome(new LinkSigner([k]), signed, given, 0), 'INVALID_SIGNATURE', spelling);
      }),
      propertyParameters('links: other spellings', 500),
    );
  });
});
