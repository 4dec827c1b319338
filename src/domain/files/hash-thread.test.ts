import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { HashThread } from './hash-thread.ts';

const mib = 1024 * 1024;

/** Feeds `bytes` in chunks of varied sizes, as a socket would. */
async function digestOf(thread: HashThread, bytes: Buffer): Promise<Buffer> {
  const digest = thread.open();
  for (let offset = 0, step = 1; offset < bytes.length; offset += step, step = (step * 7 + 13) % 200_000 || 1)
    await digest.update(bytes.subarray(offset, offset + step));
  return digest.digest();
}

it('answers the same digests as node:crypto, many at once, whatever the chunk and batch edges', async () => {
  const thread = new HashThread();
  const sizes = [0, 1, mib - 1, mib, mib + 1, 3.5 * mib, 9 * mib + 17];
  for (let round = 0; round < 2; round++) {
    const inputs = sizes.map((size) => randomBytes(size));
    const answers = await Promise.all(
      // Each input twice, at once: two digests of the same bytes interleave on the thread.
      [...inputs, ...inputs].map(async (bytes) => ({
        got: await digestOf(thread, bytes),
        wanted: createHash('sha256').update(bytes).digest(),
      })),
    );
    for (const { got, wanted } of answers) assert.deepEqual(got, wanted);
  }
});

it('a discarded digest leaves the thread to the next', async () => {
  const thread = new HashThread();
  const dropped = thread.open();
  await dropped.update(randomBytes(2 * mib + 5));
  dropped.discard();
  const bytes = randomBytes(5 * mib);
  assert.deepEqual(await digestOf(thread, bytes), createHash('sha256').update(bytes).digest());
});

it('reuses the batches it sends: flushed and resumed digests, interleaved, still answer right', async () => {
  const thread = new HashThread();
  const first = randomBytes(3 * mib + 5);
  const second = randomBytes(2 * mib + 7);
  const a = thread.open();
  const b = thread.open();
  // A resumable upload's pattern: a chunk, flush (the batch goes back to the pool), another chunk.
  for (let offset = 0; offset < first.length; offset += 700_001) {
    await a.update(first.subarray(offset, offset + 700_001));
    a.flush();
    await b.update(second.subarray(offset, offset + 700_001));
    b.flush();
  }
  assert.deepEqual(await a.digest(), createHash('sha256').update(first).digest());
  assert.deepEqual(await b.digest(), createHash('sha256').update(second).digest());
});
