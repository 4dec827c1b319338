import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { responseBodyHeadBytes, toResponseBodyHead } from './response-body-head.ts';

/** The head as post-once keeps it: the first responseBodyHeadBytes + 1 bytes. */
const headOf = (text: string) => {
  const bytes = Buffer.from(text);
  return toResponseBodyHead(bytes.subarray(0, responseBodyHeadBytes + 1), bytes.length);
};

describe('toResponseBodyHead', () => {
  it('keeps a short body whole', () => {
    assert.deepEqual(headOf('ok ✓'), { text: 'ok ✓', truncated: false });
    assert.deepEqual(headOf(''), { text: '', truncated: false });
  });

  it('keeps a body of exactly 1 KiB whole', () => {
    assert.deepEqual(headOf('x'.repeat(1024)), { text: 'x'.repeat(1024), truncated: false });
  });

  it('cuts at 1 KiB, before a character the limit falls in (2, 3 and 4 bytes)', () => {
    for (const [character, before] of [
      ['é', 1023],
      ['€', 1022],
      ['€', 1023],
      ['😀', 1021],
      ['😀', 1023],
    ] as const) {
      const head = headOf(`${'a'.repeat(before)}${character}tail`);
      assert.equal(head.text, 'a'.repeat(before), `${character} after ${before}`);
      assert.equal(head.truncated, true);
    }
  });

  it('keeps a character that ends at the limit', () => {
    const head = headOf(`${'a'.repeat(1022)}é and more`);
    assert.deepEqual(head, { text: `${'a'.repeat(1022)}é`, truncated: true });
  });
});
