import { createCipheriv, createHash, randomInt } from 'node:crypto';

/** Deterministic choices for a test run: the same seed replays the same run. */
export type SeededRandom = {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `sizeBytes` pseudo-random bytes (AES-CTR keyed by the seed and `label`): fast even for MiBs. */
  bytes(sizeBytes: number, label: string): Buffer;
};

/**
 * The seed of a run: `COFFER_TEST_SEED` replays one, otherwise a fresh one. It is printed, so
 * a failure on a busy machine can be replayed with the same sizes, order and kill points.
 */
export function chooseSeed(suite: string): number {
  const given = process.env.COFFER_TEST_SEED;
  const seed = given ? Number(given) : randomInt(2 ** 31);
  console.log(`# ${suite}: seed ${seed} (replay with COFFER_TEST_SEED=${seed})`);
  return seed;
}

/** mulberry32: a tiny, well-mixed 32-bit generator, plenty for picking test cases. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    bytes: (sizeBytes, label) => {
      const key = createHash('sha256').update(`${seed}:${label}`).digest();
      const cipher = createCipheriv('aes-128-ctr', key.subarray(0, 16), key.subarray(16));
      return Buffer.concat([cipher.update(Buffer.alloc(sizeBytes)), cipher.final()]);
    },
  };
}
