import type { Clock } from '../clock.ts';
import type { AccessEpochWatch } from '../identity/access-epoch-watch.ts';
import type { HmacKey } from '../links/link-signer.ts';
import { type KeyLifetime, toKeySchedule } from './key-schedule.ts';
import type { SigningKey, SigningKeyRepository } from './signing-key-repository.ts';

export type SigningKeyRingOptions<Signer> = {
  purpose: SigningKey['purpose'];
  repository: SigningKeyRepository;
  /** A new key bumps the access epoch (migrations/app-credentials.ts): the list is read again then. */
  accessEpoch: AccessEpochWatch;
  clock: Clock;
  lifetime: KeyLifetime;
  /** Makes the signer of a schedule: the signing key first, then the keys that still verify. */
  build(keys: HmacKey[]): Signer;
  /** The keys read at start (services.ts makes the first one). */
  initial: SigningKey[];
};

/**
 * The signing keys of one purpose as every process sees them while keys rotate (`coffer keys
 * rotate`): the list is read again when the access epoch moves (never because a request names
 * an unknown key, so a forged `kid` costs no database read), and the signer is rebuilt when
 * the list changes or the schedule reaches a key's activation or retirement (key-schedule.ts).
 */
export class SigningKeyRing<Signer> {
  readonly #o: SigningKeyRingOptions<Signer>;
  #stored: SigningKey[];
  #storedGeneration: number;
  #loading: Promise<void> | undefined;
  #signer: { value: Signer; keyIds: string; changesAtMs: number } | undefined;

  constructor(options: SigningKeyRingOptions<Signer>) {
    this.#o = options;
    this.#stored = options.initial;
    this.#storedGeneration = options.accessEpoch.generation;
  }

  /** The signer for now: signs with the current key, verifies with every key not retired. */
  async current(): Promise<Signer> {
    const reading = this.#o.accessEpoch.current();
    const generation = typeof reading === 'number' ? reading : await reading;
    if (generation !== this.#storedGeneration) await this.#reload(generation);
    const nowMs = this.#o.clock.now().getTime();
    const signer = this.#signer;
    if (signer && nowMs < signer.changesAtMs) return signer.value;
    const schedule = toKeySchedule(this.#stored, nowMs, this.#o.lifetime);
    const keyIds = schedule.keys.map((key) => key.id).join(',');
    // The same keys in the same roles: keep the signer (and the caches it holds).
    if (signer && signer.keyIds === keyIds) {
      signer.changesAtMs = schedule.changesAtMs;
      return signer.value;
    }
    if (schedule.keys.length === 0) throw new Error(`no ${this.#o.purpose} signing key`);
    const value = this.#o.build(schedule.keys);
    this.#signer = { value, keyIds, changesAtMs: schedule.changesAtMs };
    return value;
  }

  /** One read at a time; a read that started under an older generation is followed by another. */
  async #reload(generation: number): Promise<void> {
    if (this.#loading) await this.#loading;
    if (this.#storedGeneration === generation) return;
    this.#loading ??= this.#read(generation).finally(() => {
      this.#loading = undefined;
    });
    await this.#loading;
  }

  async #read(generation: number): Promise<void> {
    const stored = await this.#o.repository.list(this.#o.purpose);
    // An empty answer (keys deleted by hand) keeps the last known keys: nothing could sign.
    if (stored.length > 0) this.#stored = stored;
    this.#storedGeneration = generation;
    if (this.#signer) this.#signer.changesAtMs = 0;
  }
}
