import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { newId } from '../ids.ts';
import { type KeyLifetime, keyActivationDelayMs, toKeySchedule } from './key-schedule.ts';
import type { SigningKey, SigningKeyRepository } from './signing-key-repository.ts';

export type RotatedKey = {
  purpose: SigningKey['purpose'];
  keyId: string;
  /** When it starts signing (before that it only verifies). */
  signsFrom: Date;
  /** Keys of this purpose deleted because nothing they signed can still be valid. */
  deleted: string[];
  /** Older keys that keep verifying until their last token or link has expired. */
  verifying: string[];
};

/**
 * `coffer keys rotate`: a new signing key per purpose. Running servers learn of it at their
 * next access-epoch read (the signing_keys trigger) and sign with it from `signsFrom`; older
 * keys keep verifying until what they signed has expired (key-schedule.ts). Keys retired by
 * then are deleted here: servers already ignore them, the rows are only housekeeping.
 */
export async function rotateSigningKeys(
  keys: SigningKeyRepository,
  options: {
    purposes: readonly SigningKey['purpose'][];
    /**
     * After a leak: delete every older key at once. What they signed is refused from each
     * process's next epoch read (users refresh or log in again; links handed out stop working),
     * and the new key, then the only one, signs at once.
     */
    retireOld?: boolean;
    clock: Clock;
    lifetimes: Record<SigningKey['purpose'], KeyLifetime>;
  },
): Promise<RotatedKey[]> {
  const rotated: RotatedKey[] = [];
  for (const purpose of options.purposes) {
    // Keys are ordered by creation: a new key is the newest even if this host's clock is behind.
    const [newest] = await keys.list(purpose);
    const nowMs = options.clock.now().getTime();
    const createdAt = new Date(Math.max(nowMs, (newest?.createdAt.getTime() ?? 0) + 1));
    const key = { id: `${purpose}-${newId()}`, purpose, secret: randomBytes(32), createdAt };
    await keys.create(key);
    const stored = await keys.list(purpose);
    const schedule = toKeySchedule(stored, createdAt.getTime(), options.lifetimes[purpose]);
    const retired = options.retireOld ? stored.filter((item) => item.id !== key.id) : schedule.retired;
    const deleted = retired.map((item) => item.id);
    await keys.delete(deleted);
    rotated.push({
      purpose,
      keyId: key.id,
      signsFrom: new Date(createdAt.getTime() + (options.retireOld ? 0 : keyActivationDelayMs)),
      deleted,
      verifying: schedule.keys.map((item) => item.id).filter((id) => id !== key.id && !deleted.includes(id)),
    });
  }
  return rotated;
}
