import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../errors/app-error.ts';
import { parseExpiresInSeconds } from './parse-expires-in-seconds.ts';

describe('parseExpiresInSeconds', () => {
  it('defaults to 900 seconds (spec 8)', () => assert.equal(parseExpiresInSeconds(undefined, 604800), 900));
  it('caps the default at a lower configured maximum', () =>
    assert.equal(parseExpiresInSeconds(undefined, 300), 300));
  for (const [text, seconds] of [
    ['1', 1],
    ['60', 60],
    ['604800', 604800],
    ['0060', 60],
  ] as const) {
    it(`reads ${text}`, () => assert.equal(parseExpiresInSeconds(text, 604800), seconds));
  }
  for (const text of [
    '1e3',
    '0x10',
    ' 60',
    '60 ',
    '+60',
    '-60',
    '60.0',
    '',
    '0',
    '604801',
    'abc',
    '99999999999',
    '６０',
  ]) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => parseExpiresInSeconds(text, 604800),
        (e) => isAppError(e) && e.code === 'VALIDATION_FAILED',
      );
    });
  }
  it('honours a lower configured maximum', () => {
    assert.throws(
      () => parseExpiresInSeconds('3601', 3600),
      (e) => isAppError(e) && e.code === 'VALIDATION_FAILED',
    );
  });
});
