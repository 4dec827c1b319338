import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyActivationDelayMs, keyRetirementMarginMs, toKeySchedule } from './key-schedule.ts';
import type { SigningKey } from './signing-key-repository.ts';

const lifetime = { maxLifetimeSeconds: 3600 };
const key = (id: string, createdAtMs: number): SigningKey => ({
  id,
  purpose: 'token',
  secret: Buffer.from(id),
  createdAt: new Date(createdAtMs),
});
const ids = (stored: SigningKey[], nowMs: number) =>
  toKeySchedule(stored, nowMs, lifetime).keys.map((k) => k.id);

describe('toKeySchedule', () => {
  const first = key('k1', 0);
  const rotatedAt = 1_000_000;
  const second = key('k2', rotatedAt);
  const newestFirst = [second, first];
  const activation = rotatedAt + keyActivationDelayMs;
  const retirement = activation + 3600_000 + keyRetirementMarginMs;

  it('the first key signs at once, alone', () => {
    assert.deepEqual(ids([first], 0), ['k1']);
    assert.equal(toKeySchedule([first], 0, lifetime).changesAtMs, Number.POSITIVE_INFINITY);
  });

  it('a new key verifies at once and signs only after the activation delay', () => {
    assert.deepEqual(ids(newestFirst, rotatedAt), ['k1', 'k2']);
    assert.equal(toKeySchedule(newestFirst, rotatedAt, lifetime).changesAtMs, activation);
    assert.deepEqual(ids(newestFirst, activation - 1), ['k1', 'k2']);
    assert.deepEqual(ids(newestFirst, activation), ['k2', 'k1']);
  });

  it('the old key verifies until the longest lifetime after its successor took over, then retires', () => {
    assert.equal(toKeySchedule(newestFirst, activation, lifetime).changesAtMs, retirement);
    assert.deepEqual(ids(newestFirst, retirement - 1), ['k2', 'k1']);
    const after = toKeySchedule(newestFirst, retirement, lifetime);
    assert.deepEqual(
      after.keys.map((k) => k.id),
      ['k2'],
    );
    assert.deepEqual(after.retired, [first]);
    assert.equal(after.changesAtMs, Number.POSITIVE_INFINITY);
  });

  it('two rotations in a row: each old key retires after its own successor signed long enough', () => {
    const third = key('k3', activation + 10_000);
    const all = [third, second, first];
    const thirdActive = third.createdAt.getTime() + keyActivationDelayMs;
    assert.deepEqual(ids(all, thirdActive), ['k3', 'k2', 'k1']);
    assert.deepEqual(ids(all, retirement), ['k3', 'k2']);
    const secondRetires = thirdActive + 3600_000 + keyRetirementMarginMs;
    assert.deepEqual(ids(all, secondRetires), ['k3']);
    assert.deepEqual(toKeySchedule(all, secondRetires, lifetime).retired, [second, first]);
  });

  it('no keys: nothing signs', () => {
    assert.deepEqual(toKeySchedule([], 0, lifetime).keys, []);
  });
});
