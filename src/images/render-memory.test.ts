import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import { noiseAnimation } from '../../test/support/animated-images.ts';
import { toMiB } from '../../test/support/peak-rss.ts';
import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';

/**
 * Issue 35: every loader Coffer accepts, rendered in a process of its own, takes at most the
 * memory src/images/render-memory.ts estimates from its header, so the render budget bounds
 * what renders really take (peak RSS, VmHWM). A libvips update that changes a decoder's
 * appetite fails here.
 */
const run = promisify(execFile);
const child = path.join(import.meta.dirname, '../../test/support/render-memory-child.ts');
const thumbnail: RenditionSpec = {
  width: 200,
  height: 200,
  resize: 'cover',
  format: 'jpeg',
  quality: 80,
  animated: false,
  posterAtMs: null,
};

type Case = { name: string; image: () => Sharp; spec?: RenditionSpec };

const side = 3000;
const plain = (channels: 3 | 4 = 3, width = side, height = side) =>
  sharp({
    create: { width, height, channels, background: { r: 200, g: 30, b: 30, alpha: 0.5 } },
  });
const animated = async (encode: (image: Sharp) => Sharp) => {
  const frames = await Promise.all(
    [200, 20, 100].map((red) =>
      sharp({ create: { width: side, height: side, channels: 4, background: { r: red, g: 30, b: 30 } } })
        .png()
        .toBuffer(),
    ),
  );
  return encode(sharp(frames, { join: { animated: true } }));
};

const cases: Case[] = [
  {
    name: 'PNG 16-bit RGB, interlaced',
    image: () => plain().toColourspace('rgb16').png({ progressive: true }),
  },
  {
    name: 'PNG 16-bit RGBA, interlaced',
    image: () => plain(4).toColourspace('rgb16').png({ progressive: true }),
  },
  { name: 'PNG 8-bit RGB, interlaced', image: () => plain().png({ progressive: true }) },
  { name: 'PNG 16-bit RGB', image: () => plain().toColourspace('rgb16').png() },
  { name: 'PNG 8-bit RGB, 12000×750', image: () => plain(3, 12_000, 750).png() },
  { name: 'PNG 16-bit RGB, 12000×2500', image: () => plain(3, 12_000, 2500).toColourspace('rgb16').png() },
  { name: 'JPEG progressive 4:2:0', image: () => plain().jpeg({ progressive: true }) },
  {
    name: 'JPEG progressive 4:4:4',
    image: () => plain().jpeg({ progressive: true, chromaSubsampling: '4:4:4' }),
  },
  { name: 'JPEG baseline', image: () => plain().jpeg() },
  { name: 'GIF', image: () => plain().gif() },
  { name: 'WebP lossy', image: () => plain().webp() },
  { name: 'WebP lossless with alpha', image: () => plain(4).webp({ lossless: true }) },
  { name: 'AVIF 8-bit', image: () => plain().avif({ effort: 0 }) },
  { name: 'AVIF 10-bit', image: () => plain().avif({ effort: 0, bitdepth: 10 }) },
  // The encoder's share: a large rendition of a source that streams.
  {
    name: 'JPEG baseline → 2048² AVIF',
    image: () => plain().jpeg(),
    spec: { ...thumbnail, width: 2048, height: 2048, format: 'avif' },
  },
  {
    name: 'JPEG baseline → 2048² WebP',
    image: () => plain().jpeg(),
    spec: { ...thumbnail, width: 2048, height: 2048, format: 'webp' },
  },
  {
    name: 'PNG 8-bit → 2048² JPEG',
    image: () => plain().png(),
    spec: { ...thumbnail, width: 2048, height: 2048, format: 'jpeg' },
  },
  {
    name: 'WebP lossy → 2048² PNG',
    image: () => plain().webp(),
    spec: { ...thumbnail, width: 2048, height: 2048, format: 'png' },
  },
];

describe('render memory: every loader within its estimate', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coffer-render-memory-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const measure = async (file: string, spec: RenditionSpec) => {
    const { stdout } = await run(process.execPath, [child, file, JSON.stringify(spec)]);
    return JSON.parse(stdout) as { grownBytes: number; estimatedBytes: number };
  };

  for (const [index, { name, image, spec = thumbnail }] of cases.entries()) {
    it(name, async (t) => {
      const file = path.join(dir, `${index}`);
      await writeFile(file, await image().toBuffer());
      const { grownBytes, estimatedBytes } = await measure(file, spec);
      t.diagnostic(`peak RSS grew ${toMiB(grownBytes)} MiB, estimated ${toMiB(estimatedBytes)} MiB`);
      assert.ok(
        grownBytes <= estimatedBytes,
        `${name}: the render took ${toMiB(grownBytes)} MiB, more than the ${toMiB(estimatedBytes)} MiB estimated`,
      );
    });
  }

  // Issue 39: every frame, resized, to an animated WebP: to a thumbnail (the decode's share) and
  // at full size (the animation encoder's).
  it('animated GIF and WebP, rendered animated', async (t) => {
    for (const format of ['gif', 'webp'] as const) {
      const name = format === 'gif' ? 'GIF' : 'WebP';
      const file = path.join(dir, `animated-noise-${format}`);
      await writeFile(file, await noiseAnimation({ format, side: 1000, frames: 4 }));
      for (const width of [200, 1000]) {
        const spec: RenditionSpec = { ...thumbnail, width, height: null, format: 'webp', animated: true };
        const { grownBytes, estimatedBytes } = await measure(file, spec);
        t.diagnostic(
          `${name} → ${width} px animated: peak RSS grew ${toMiB(grownBytes)} MiB, estimated ${toMiB(estimatedBytes)} MiB`,
        );
        assert.ok(
          grownBytes <= estimatedBytes,
          `animated ${name} → ${width}: ${toMiB(grownBytes)} > ${toMiB(estimatedBytes)} MiB`,
        );
      }
    }
  });

  it('animated GIF and WebP (the first frame)', async (t) => {
    for (const [name, encode] of [
      ['GIF', (frames: Sharp) => frames.gif()],
      ['WebP', (frames: Sharp) => frames.webp()],
    ] as const) {
      const file = path.join(dir, `animated-${name}`);
      await writeFile(file, await (await animated(encode)).toBuffer());
      const { grownBytes, estimatedBytes } = await measure(file, thumbnail);
      t.diagnostic(`${name}: peak RSS grew ${toMiB(grownBytes)} MiB, estimated ${toMiB(estimatedBytes)} MiB`);
      assert.ok(
        grownBytes <= estimatedBytes,
        `animated ${name}: ${toMiB(grownBytes)} > ${toMiB(estimatedBytes)} MiB`,
      );
    }
  });
});
