import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScanSlots } from './scan-slots.ts';

describe('ScanSlots (COFFER_SCAN_CONCURRENCY)', () => {
  it('runs at most `size` at once; the others wait in order and none is dropped', async () => {
    const slots = new ScanSlots(2);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const jobs = Array.from({ length: 5 }, (_, i) =>
      slots.take().then((release) => {
        running += 1;
        most = Math.max(most, running);
        order.push(i);
        releases.push(() => {
          running -= 1;
          release();
        });
      }),
    );
    await Promise.resolve();
    assert.deepEqual(order, [0, 1], 'two at once');
    while (order.length < 5 || releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(jobs);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(most, 2);
  });

  it('a waiter whose signal aborts leaves the queue; the slot goes to the next', async () => {
    const slots = new ScanSlots(1);
    const first = await slots.take();
    const controller = new AbortController();
    const leaving = slots.take(controller.signal);
    const staying = slots.take();
    controller.abort(new Error('gone'));
    await assert.rejects(leaving, /gone/);
    first();
    const release = await staying;
    release();
    release(); // twice is once
    (await slots.take())();
  });
});
