import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  defaultDownloadTtlSeconds,
  parseExpiresInSeconds,
} from '../../src/domain/links/parse-expires-in-seconds.ts';
import { isAppError } from '../../src/errors/app-error.ts';
import { anyCodeUnit, propertyParameters } from '../support/fuzz-settings.ts';

const maxSeconds = fc.integer({ min: 1, max: 604_800 });

function parse(text: string | undefined, max: number): number | string {
  try {
    return parseExpiresInSeconds(text, max);
  } catch (error) {
    assert.ok(isAppError(error), `a refusal is an AppError, not ${error}`);
    assert.equal(error.statusCode, 400);
    return error.code;
  }
}

/** Spellings of a number that are not plain decimal digits. */
const otherSpelling = fc.integer({ min: 1, max: 604_800 }).chain((n) =>
  fc.constantFrom(
    `${n}.0`,
    `+${n}`,
    `-${n}`,
    ` ${n}`,
    `${n} `,
    `${n}\n`,
    `0x${n.toString(16)}`,
    `${n}e0`,
    `${n / 10}`.includes('.') ? `${n / 10}` : `${n}.5`,
    `${n}s`,
    `١${n}`, // an Arabic-Indic digit
    `${n},0`,
    '',
    'Infinity',
    'NaN',
  ),
);

describe('expiresInSeconds parsing (property)', () => {
  it('absent → the default, capped at the maximum', () => {
    fc.assert(
      fc.property(maxSeconds, (max) => {
        assert.equal(parse(undefined, max), Math.min(defaultDownloadTtlSeconds, max));
      }),
      propertyParameters('expiresInSeconds: absent', 200),
    );
  });

  it('every whole number from 1 to the maximum, written in digits, parses to itself', () => {
    const inRange = maxSeconds.chain((max) => fc.tuple(fc.constant(max), fc.integer({ min: 1, max })));
    fc.assert(
      fc.property(inRange, fc.nat({ max: 3 }), ([max, seconds], zeros) => {
        assert.equal(parse(`${'0'.repeat(zeros)}${seconds}`.slice(-10), max), seconds);
      }),
      propertyParameters('expiresInSeconds: in range', 2000),
    );
  });

  it('0 and anything past the maximum are VALIDATION_FAILED', () => {
    const outOfRange = maxSeconds.chain((max) =>
      fc.tuple(fc.constant(max), fc.oneof(fc.constant(0), fc.integer({ min: max + 1, max: 9_999_999_999 }))),
    );
    fc.assert(
      fc.property(outOfRange, ([max, seconds]) => {
        assert.equal(parse(String(seconds), max), 'VALIDATION_FAILED');
      }),
      propertyParameters('expiresInSeconds: out of range', 2000),
    );
  });

  it('any other spelling of a number is VALIDATION_FAILED', () => {
    fc.assert(
      fc.property(otherSpelling, maxSeconds, (text, max) => {
        assert.equal(parse(text, max), 'VALIDATION_FAILED', JSON.stringify(text));
      }),
      propertyParameters('expiresInSeconds: other spellings', 2000),
    );
  });

  it('for any text: either VALIDATION_FAILED or a whole number in range that the digits spell', () => {
    const anyText = fc.oneof(
      fc.string({ unit: anyCodeUnit, maxLength: 14 }),
      fc.stringMatching(/^[0-9]{1,14}$/),
      fc.string({ unit: fc.constantFrom(...'0123456789+-.eEx '), maxLength: 14 }),
    );
    fc.assert(
      fc.property(anyText, maxSeconds, (text, max) => {
        const result = parse(text, max);
        if (result === 'VALIDATION_FAILED') return;
        assert.ok(typeof result === 'number' && Number.isSafeInteger(result), String(result));
        assert.ok(result >= 1 && result <= max);
        assert.match(text, /^[0-9]+$/);
        assert.equal(result, Number.parseInt(text, 10));
      }),
      propertyParameters('expiresInSeconds: any text', 5000),
    );
  });
});
