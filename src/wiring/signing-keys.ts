import { randomBytes } from 'node:crypto';
import { toKeyLifetimes } from '../domain/keys/key-lifetimes.ts';
import type { SigningKey, SigningKeyRepository } from '../domain/keys/signing-key-repository.ts';
import { SigningKeyRing } from '../domain/keys/signing-key-ring.ts';
import type { HmacKey } from '../domain/links/link-signer.ts';
import type { WiringContext } from './wiring-context.ts';

/** The keys read at start, per purpose: the rings below begin with them. */
export type InitialKeys = Record<SigningKey['purpose'], SigningKey[]>;

/** Reads (on the very first start, creates) the link and token keys. */
export async function loadSigningKeys(keys: SigningKeyRepository): Promise<InitialKeys> {
  const link = await loadKeys(keys, 'link');
  const token = await loadKeys(keys, 'token');
  return { link, token };
}

/** The key ring of a purpose, its signer rebuilt by `build` as keys rotate. */
export function buildKeyRing<Signer>(
  context: WiringContext,
  initial: { purpose: SigningKey['purpose']; keys: SigningKey[] },
  build: (keys: HmacKey[]) => Signer,
): SigningKeyRing<Signer> {
  const { purpose } = initial;
  return new SigningKeyRing({
    purpose,
    repository: context.repositories.signingKeys,
    accessEpoch: context.accessEpoch,
    clock: context.clock,
    lifetime: toKeyLifetimes(context.config)[purpose],
    build,
    initial: initial.keys,
  });
}

/**
 * The HMAC keys of a purpose, newest first. The first start creates one under a fixed id, so
 * nodes starting together agree on it (the loser's insert fails and it reads the winner's).
 */
async function loadKeys(keys: SigningKeyRepository, purpose: SigningKey['purpose']): Promise<SigningKey[]> {
  let found = await keys.list(purpose);
  if (found.length === 0) {
    try {
      await keys.create({ id: `${purpose}1`, purpose, secret: randomBytes(32), createdAt: new Date() });
    } catch {
      // another node created it first
    }
    found = await keys.list(purpose);
  }
  return found;
}
