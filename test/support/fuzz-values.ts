import fc from 'fast-check';
import { anyCodeUnit } from './fuzz-settings.ts';

// Values that break things, for the mutated-request campaign: odd strings, odd JSON, and the
// helpers that make them fit where they go (a header, a URL).

export const nastyStrings = [
  '',
  ' ',
  '0',
  '-1',
  '1e3',
  '0x10',
  '9'.repeat(20),
  'null',
  'undefined',
  'NaN',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '..',
  '.',
  '%00',
  '\u0000',
  '\u202e',
  '\ufeff',
  '😀',
  'é',
  'e\u0301',
  '\ud800',
  'a'.repeat(300),
  'a'.repeat(5000),
  '%',
  '%zz',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, literally
  '${jndi:ldap://x/a}',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '*',
  '\\',
  '//',
  '\r\n',
];
export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 24 }) },
);

/** A value Node lets go out as a header: latin-1 text without controls but tab. */
export const toHeaderValue = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
/** Percent-encoded where encodable (a lone surrogate is not), raw otherwise. */
export const toUrlText = (text: string, raw: boolean) => {
  if (!raw && text.isWellFormed()) return encodeURIComponent(text);
  return text.replace(/[^\x21-\xff]/g, '').replace(/[?#]/g, '');
};

export const deepJson = fc
  .integer({ min: 10, max: 30_000 })
  .map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);
export const nastyJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, 0, -1, -0, 1.5, 1e308, 2 ** 53 + 1, true, false, [], {}, [[]], { a: {} }),
  nastyString,
  fc.integer({ min: 1000, max: 100_000 }).map((n) => 'x'.repeat(n)),
  fc.array(nastyString, { maxLength: 50 }),
);
