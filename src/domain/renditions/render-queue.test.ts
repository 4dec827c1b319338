import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RenderQueue } from './render-queue.ts';

/** A task that runs until released, counting its starts. */
function gate() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const gated = {
    starts: 0,
    release,
    task: async () => {
      gated.starts += 1;
      await released;
      return 'done';
    },
  };
  return gated;
}

describe('RenderQueue', () => {
  it('runs one task per key however many ask, and shares its answer', async () => {
    const queue = new RenderQueue({ concurrency: 2, queueLength: 0, maxWaitMs: 10_000 });
    const one = gate();
    const answers = Array.from({ length: 50 }, () => queue.run('a', one.task));
    one.release();
    assert.deepEqual(new Set(await Promise.all(answers)), new Set(['done']));
    assert.equal(one.starts, 1);
    assert.deepEqual(queue.load, { running: 0, waiting: 0 });
  });

  it('bounds the work: a slot per task, a bounded queue, RENDER_BUSY past it', async () => {
    const queue = new RenderQueue({ concurrency: 1, queueLength: 1, maxWaitMs: 10_000 });
    const first = gate();
    const second = gate();
    const running = queue.run('1', first.task);
    const waiting = queue.run('2', second.task);
    assert.deepEqual(queue.load, { running: 1, waiting: 1 });
    await assert.rejects(
      queue.run('3', async () => 'never'),
      { code: 'RENDER_BUSY' },
    );
    assert.equal(second.starts, 0, 'the second waits for the slot');
    first.release();
    await running;
    second.release();
    assert.equal(await waiting, 'done');
    assert.deepEqual(queue.load, { running: 0, waiting: 0 });
  });

  it('gives up a wait that lasts too long, and frees the slot of a failed task', async () => {
    const queue = new RenderQueue({ concurrency: 1, queueLength: 5, maxWaitMs: 50 });
    const first = gate();
    const running = queue.run('1', first.task);
    await assert.rejects(
      queue.run('2', async () => 'late'),
      { code: 'RENDER_BUSY' },
    );
    first.release();
    await running;
    await assert.rejects(
      queue.run('3', async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await queue.run('4', async () => 'next'), 'next');
    assert.deepEqual(queue.load, { running: 0, waiting: 0 });
  });

  it('frees the slot before `after` runs; those who join get what `after` made, made once', async () => {
    const queue = new RenderQueue({ concurrency: 1, queueLength: 0, maxWaitMs: 10_000 });
    const storing = gate();
    let afters = 0;
    const after = async (made: string) => {
      afters += 1;
      await storing.task();
      return `${made}, stored`;
    };
    const first = queue.run('a', async () => 'rendered', after);
    const joined = queue.run('a', async () => 'again', after);
    // The render is done and its store waits: the only slot is free for another key at once.
    await new Promise<void>((resolve) => {
      const poll = () => (storing.starts === 1 ? resolve() : setImmediate(poll));
      poll();
    });
    assert.deepEqual(queue.load, { running: 0, waiting: 0 });
    assert.equal(await queue.run('b', async () => 'other'), 'other');
    storing.release();
    assert.deepEqual(await Promise.all([first, joined]), ['rendered, stored', 'rendered, stored']);
    assert.equal(afters, 1);
  });
});
