import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignPreset, findPreset } from './rendition-presets.ts';
import {
  parseCanonicalSpec,
  parsePreset,
  parseRenditionQuery,
  toCanonicalSpec,
  toPresetText,
} from './rendition-spec.ts';
import { resolveRenditionSpec } from './resolve-rendition-spec.ts';

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

  it('spell the specs of before issue 39 as before, so their links and cached renditions stay valid', () => {
    // Canonical strings as links and rendition rows carry them since issue 21.
    for (const text of ['200x150-cover-webp-q80', '0x64-cover-origin-q80', '4096x4096-inside-avif-q100']) {
      const spec = parseCanonicalSpec(text);
      assert.ok(spec, text);
      assert.equal(spec.animated, false, text);
      assert.equal(spec.posterAtMs, null, text);
      assert.equal(toCanonicalSpec(spec), text);
    }
    // animated=false is the default, spelled as its absence: one spec, one string.
    assert.equal(
      toCanonicalSpec(parseRenditionQuery({ width: '320', format: 'webp', animated: 'false' })),
      '320x0-cover-webp-q80',
    );
  });

  it('spell animated and posterAt as suffixes, -anim then -t<ms>, read back exactly', () => {
    const cases: [Record<string, string>, string][] = [
      [{ width: '320', format: 'webp', animated: 'true' }, '320x0-cover-webp-q80-anim'],
      [{ width: '320', format: 'webp', posterAt: '2.5' }, '320x0-cover-webp-q80-t2500'],
      [{ width: '320', format: 'webp', posterAt: '2.500' }, '320x0-cover-webp-q80-t2500'],
      [{ width: '320', posterAt: '0' }, '320x0-cover-origin-q80-t0'],
      [{ width: '320', posterAt: '0.001' }, '320x0-cover-origin-q80-t1'],
      [{ width: '320', posterAt: '86400' }, '320x0-cover-origin-q80-t86400000'],
      [
        { width: '64', height: '64', format: 'webp', animated: 'true', posterAt: '1.04' },
        '64x64-cover-webp-q80-anim-t1040',
      ],
    ];
    for (const [query, text] of cases) {
      const spec = parseRenditionQuery(query);
      assert.equal(toCanonicalSpec(spec), text, JSON.stringify(query));
      assert.deepEqual(parseCanonicalSpec(text), spec, text);
    }
    // One spelling per spec: every other spelling of these names no rendition.
    for (const text of [
      '320x0-cover-webp-q80-t2500-anim',
      '320x0-cover-webp-q80-anim-anim',
      '320x0-cover-webp-q80-t02500',
      '320x0-cover-webp-q80-t2.5',
      '320x0-cover-webp-q80-t',
      '320x0-cover-webp-q80-t-1',
      '320x0-cover-webp-q80-t86400001',
      '320x0-cover-webp-q80-t100000000',
      '320x0-cover-webp-q80-ANIM',
      '320x0-cover-webp-q80-animated',
      '320x0-cover-webp-q80-anim-',
      '320x0-cover-jpeg-q80-anim',
      '320x0-cover-origin-q80-anim',
    ])
      assert.equal(parseCanonicalSpec(text), undefined, text);
  });

  it('refuse animated without format=webp, and a posterAt that is no time of a day', () => {
    for (const format of [undefined, 'origin', 'jpeg', 'png', 'avif'])
      assert.throws(
        () => parseRenditionQuery({ width: '10', animated: 'true', ...(format && { format }) }),
        /animated=true needs format=webp/,
      );
    for (const animated of ['1', 'yes', 'TRUE', ''])
      assert.throws(() => parseRenditionQuery({ width: '10', animated }), /animated must be true or false/);
    for (const posterAt of ['-1', '86400.001', '86401', '1.0001', '.5', '1.', '1e3', '01', ' 1', 'NaN', ''])
      assert.throws(
        () => parseRenditionQuery({ width: '10', posterAt }),
        /posterAt must be seconds from 0 to 86400, with at most 3 decimals/,
        posterAt,
      );
    assert.throws(() => parseRenditionQuery({ animated: 'true', format: 'webp' }), /width or height/);
  });

  it('take animated and posterAt beside a preset name, and no size parameter', () => {
    const settings = {
      renditions: 'presets' as const,
      renditionPresets: {
        thumb: '320x0-cover-webp-q80',
        still: '64x64-cover-jpeg-q70',
        loop: '100x0-cover-webp-q80-anim',
      },
    };
    const resolve = (query: Record<string, string>) =>
      toCanonicalSpec(resolveRenditionSpec({ rendition: 'thumb', ...query }, settings));
    assert.equal(resolve({}), '320x0-cover-webp-q80');
    assert.equal(resolve({ animated: 'true' }), '320x0-cover-webp-q80-anim');
    assert.equal(resolve({ posterAt: '3' }), '320x0-cover-webp-q80-t3000');
    assert.equal(resolve({ animated: 'false', posterAt: '0.5' }), '320x0-cover-webp-q80-t500');
    const loop = (query: Record<string, string>) =>
      toCanonicalSpec(resolveRenditionSpec({ rendition: 'loop', ...query }, settings));
    assert.equal(loop({}), '100x0-cover-webp-q80-anim');
    assert.equal(loop({ animated: 'false' }), '100x0-cover-webp-q80', 'the query replaces the preset');
    assert.throws(
      () => resolveRenditionSpec({ rendition: 'still', animated: 'true' }, settings),
      /animated=true needs format=webp .*; preset still writes jpeg/,
    );
    for (const size of [{ width: '10' }, { format: 'webp' }, { quality: '50' }])
      assert.throws(
        () => resolveRenditionSpec({ rendition: 'thumb', ...size }, settings),
        /by name or by parameters, not both/,
      );
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
    assert.equal(
      toCanonicalSpec(parsePreset('320x,webp,anim,t2.5', 'renditions.clip')),
      '320x0-cover-webp-q80-anim-t2500',
    );
    for (const text of ['320x,cover,webp,q80,anim,t2.5', '320x,cover,origin,q80,t0', '10x20,fill,webp,q80'])
      assert.equal(toPresetText(parsePreset(text, 'renditions.x')), text);
    assert.throws(
      () => parsePreset('320x,jpeg,anim', 'renditions.x'),
      /renditions.x: animated=true needs format=webp/,
    );
    assert.throws(() => parsePreset('320x,t99999', 'renditions.x'), /renditions.x: posterAt must be/);
    assert.throws(() => parsePreset('big', 'renditions.x'), /<width>x<height>/);
    assert.throws(
      () => parsePreset('10x10,sepia', 'renditions.x'),
      /"sepia" is none of .*, anim or t<seconds>/,
    );
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
