import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignPreset, findPreset } from './rendition-presets.ts';
import { parseCanonicalSpec, parsePreset, parseRenditionQuery, toCanonicalSpec } from './rendition-spec.ts';

describe('rendition specs', () => {
  it('have one canonical spelling, read back exactly', () => {
    const spec = parseRenditionQuery({ width: '200', height: '150', format: 'webp' });
    assert.equal(toCanonicalSpec(spec), '200x150-cover-webp-q80');
    assert.deepEqual(parseCanonicalSpec('200x150-cover-webp-q80'), spec);
    assert.equal(toCanonicalSpec(parseRenditionQuery({ height: '64' })), '0x64-cover-origin-q80');
    // Anything the canonical writer would not write names no rendition.
    for (const text of [
      '0200x150-cover-webp-q80',
      '200x150-cover-webp-q080',
      '200x150-cover-webp-q10',
      '0x0-cover-webp-q80',
      '5000x1-cover-webp-q80',
      '200x150-stretch-webp-q80',
      '200x150-cover-gif-q80',
      '200X150-cover-webp-q80',
      '200x150-cover-webp-q80 ',
    ])
      assert.equal(parseCanonicalSpec(text), undefined, text);
  });

  it('refuse bad parameters, naming what is allowed', () => {
    assert.throws(() => parseRenditionQuery({ width: '4097' }), /width must be an integer from 1 to 4096/);
    assert.throws(() => parseRenditionQuery({ width: '1.5' }), /width/);
    assert.throws(() => parseRenditionQuery({ width: '+5' }), /width/);
    assert.throws(() => parseRenditionQuery({ width: '5', quality: '101' }), /quality/);
    assert.throws(() => parseRenditionQuery({ resize: 'cover' }), /width or height/);
  });

  it('read presets as the CLI writes them', () => {
    assert.equal(
      toCanonicalSpec(parsePreset('200x200,cover,webp,q80', 'renditions.thumb')),
      '200x200-cover-webp-q80',
    );
    assert.equal(
      toCanonicalSpec(parsePreset('320x, inside, jpeg', 'renditions.wide')),
      '320x0-inside-jpeg-q80',
    );
    assert.throws(() => parsePreset('big', 'renditions.x'), /<width>x<height>/);
    assert.throws(() => parsePreset('10x10,sepia', 'renditions.x'), /"sepia" is none of/);
    let table = assignPreset({}, 'renditions.thumb', '64x64,webp');
    assert.equal(
      findPreset(table, 'thumb') && toCanonicalSpec(findPreset(table, 'thumb')!),
      '64x64-cover-webp-q80',
    );
    assert.equal(findPreset(table, 'constructor'), undefined);
    table = assignPreset(table, 'renditions.thumb', '');
    assert.deepEqual(table, {});
    assert.throws(() => assignPreset({}, 'renditions.Bad Name', '1x1'), /preset name/);
  });
});
