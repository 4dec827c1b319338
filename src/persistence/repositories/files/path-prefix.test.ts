import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { nextPrefix } from './path-prefix.ts';

/** Code-point order, as SQLite's BINARY and PostgreSQL's "C" collation compare UTF-8 text. */
const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('nextPrefix', () => {
  it('raises the last code point, dropping those that cannot rise', () => {
    assert.equal(nextPrefix('a/b'), 'a/c');
    assert.equal(nextPrefix('a\u{10ffff}'), 'b');
    assert.equal(nextPrefix('\u{d7ff}'), '\u{e000}');
    assert.equal(nextPrefix('\u{10ffff}'), undefined);
  });

  it('bounds exactly the strings that start with the prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (prefix, other) => {
        const upper = nextPrefix(prefix);
        const inRange = compare(other, prefix) >= 0 && (upper === undefined || compare(other, upper) < 0);
        assert.equal(inRange, other.startsWith(prefix), JSON.stringify({ prefix, other, upper }));
        const extended = prefix + other;
        assert.ok(upper === undefined || compare(extended, upper) < 0);
      }),
      { numRuns: 2000 },
    );
  });
});
