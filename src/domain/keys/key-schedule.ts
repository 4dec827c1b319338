import type { HmacKey } from '../links/link-signer.ts';
import type { SigningKey } from './signing-key-repository.ts';

/**
 * How long after its creation a new key starts signing. Until then it only verifies, so
 * every process and node (which learn of it at their next access-epoch read, every 250 ms,
 * access-epoch-watch.ts) knows it before any token or link signed with it reaches them; the
 * rest of the delay covers clocks that differ between nodes.
 */
export const keyActivationDelayMs = 5_000;

/** Added to a retired key's last possible expiry: clocks of different nodes differ a little. */
export const keyRetirementMarginMs = 60_000;

/** The longest a token or link signed with a key of this purpose can stay valid. */
export type KeyLifetime = { maxLifetimeSeconds: number };

/** Which keys count at one moment, and until when that answer holds. */
export type KeySchedule = {
  /** The signing key first, then every other key that still verifies (newest first). */
  keys: HmacKey[];
  /** Unix ms at which a key starts signing or retires: the schedule must be computed again. */
  changesAtMs: number;
  /** Keys past their retirement: nothing they signed can still be valid (delete them). */
  retired: SigningKey[];
};

/**
 * The rotation rule (docs/security.md, "Rotating app secrets and signing keys"): the newest
 * key whose activation has come signs (the oldest key, when none has: the first key of a new
 * database signs at once); an older key keeps verifying until the key after it has signed for
 * `maxLifetimeSeconds` (its last token or link can no longer be valid) plus a margin; then it
 * is retired, and what it signed is refused as a bad signature or token. Keys newer than the
 * signing key verify already (they are known everywhere before they sign).
 * `stored` is newest first, as SigningKeyRepository.list answers.
 */
export function toKeySchedule(
  stored: readonly SigningKey[],
  nowMs: number,
  lifetime: KeyLifetime,
): KeySchedule {
  const activatesAt = (key: SigningKey) => key.createdAt.getTime() + keyActivationDelayMs;
  // The newest active key (activation follows creation order); when none is, the oldest.
  const active = stored.findIndex((key) => activatesAt(key) <= nowMs);
  const signer = active === -1 ? stored.length - 1 : active;
  const keys: HmacKey[] = [];
  const retired: SigningKey[] = [];
  let changesAtMs = Number.POSITIVE_INFINITY;
  stored.forEach((key, index) => {
    if (index < signer) {
      changesAtMs = Math.min(changesAtMs, activatesAt(key));
    } else if (index > signer) {
      // The key after this one (newer) took over signing at its activation.
      const successor = stored[index - 1]!;
      const retiresAt = activatesAt(successor) + lifetime.maxLifetimeSeconds * 1000 + keyRetirementMarginMs;
      if (retiresAt <= nowMs) {
        retired.push(key);
        return;
      }
      changesAtMs = Math.min(changesAtMs, retiresAt);
    }
    if (index !== signer) keys.push(toHmacKey(key));
  });
  const signing = stored[signer];
  return { keys: signing ? [toHmacKey(signing), ...keys] : keys, changesAtMs, retired };
}

function toHmacKey(key: SigningKey): HmacKey {
  return { id: key.id, secret: key.secret };
}
