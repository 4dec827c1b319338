import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isActiveContentType } from './active-content.ts';
import { sniffContentType } from './sniff-content-type.ts';

describe('sniffContentType', () => {
  const cases: [string, string | Buffer, string | undefined][] = [
    ['HTML after whitespace and a BOM', '\ufeff \n<!doctype HTML><p>x', 'text/html'],
    ['an HTML comment', '<!-- x -->', 'text/html'],
    ['a script tag', '<SCRIPT>alert(1)</SCRIPT>', 'text/html'],
    ['SVG', '<svg viewBox="0 0 1 1"></svg>', 'image/svg+xml'],
    ['SVG after an XML prolog', '<?xml version="1.0"?>\n<svg xmlns="x"/>', 'image/svg+xml'],
    ['other XML', '<?xml version="1.0"?><feed/>', 'text/xml'],
    ['a tag name that only starts like one', '<abbr>', undefined],
    ['plain text', 'hello <b> world', undefined],
    ['a GIF', 'GIF89a\x01\x00\x01\x00', 'image/gif'],
    ['nothing', '', undefined],
  ];
  for (const [name, head, expected] of cases) {
    it(`${name} → ${expected ?? 'nothing'}`, async () => {
      assert.equal(await sniffContentType(Buffer.from(head as string)), expected);
    });
  }
});

describe('isActiveContentType', () => {
  it('takes HTML, SVG, XML of any kind and scripts, parameters and case aside', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'IMAGE/SVG+XML',
      'application/rss+xml',
      'text/javascript',
      'application/xml',
    ])
      assert.equal(isActiveContentType(type), true, type);
    for (const type of ['text/plain', 'image/png', 'application/pdf', 'application/json', 'text/css'])
      assert.equal(isActiveContentType(type), false, type);
  });
});
