import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { UsageHistory } from './usage-history.ts';

it('keeps a start sample once the counters can be read, though the first reads failed', async () => {
  let reads = 0;
  const history = new UsageHistory({
    // The primary does not answer the first two gathers (a worker sampling as it starts).
    exposition: async () => {
      reads += 1;
      if (reads <= 2) throw new Error('the primary did not answer');
      return 'coffer_uploaded_bytes_total 42\n';
    },
  });
  try {
    // The third read is the start sample's second retry (a second apart), which succeeds.
    const deadline = Date.now() + 30_000;
    while (reads < 3 && Date.now() < deadline) await delay(20);
    assert.equal(reads, 3, 'the start sample was tried again');
    // Kept samples, without the one samples() takes now.
    const kept = (await history.samples()).slice(0, -1);
    // One: the start's, tried again until read (the interval's comes a minute later).
    assert.equal(kept.length, 1);
    assert.equal(kept[0]?.uploadedBytes, 42);
  } finally {
    history.stop();
  }
});
