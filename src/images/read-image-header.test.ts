import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import {
  avifImage,
  gifImage,
  jpegImage,
  jpegWithExif,
  pdfDocument,
  pngBomb,
  pngImage,
  svgImage,
  tiffImage,
  webpImage,
} from '../../test/support/test-images.ts';
import type { ImageHeader } from '../domain/renditions/image-renderer.ts';
import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';
import { isAppError } from '../errors/app-error.ts';
import { SharpImageRenderer } from './sharp-image-renderer.ts';

// readImageHeader, through the renderer that configures sharp first (blocked loaders).
const renderer = new SharpImageRenderer();
const limits = { maxPixels: 50_000_000, maxMemoryBytes: 200 * 2 ** 20 };
/** A header's format and sides (its decodeBytes has tests of its own: render-memory.test.ts). */
const sidesOf = (header: ImageHeader | undefined) =>
  header && { format: header.format, width: header.width, height: header.height };
const options = { limits, timeoutSeconds: 30 };
const spec: RenditionSpec = {
  width: 200,
  height: 200,
  resize: 'cover',
  format: 'webp',
  quality: 80,
  animated: false,
  posterAtMs: null,
};
const withCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;

describe('readHeader', () => {
  it('reads each renderable format, with the sides as displayed', async () => {
    assert.deepEqual(sidesOf(await renderer.readHeader(await jpegWithExif({ orientation: 6 }), limits)), {
      format: 'jpeg',
      width: 200,
      height: 300,
    });
    const sources = { png: pngImage, webp: webpImage, gif: gifImage, avif: avifImage, jpeg: jpegImage };
    for (const [format, build] of Object.entries(sources)) {
      const header = await renderer.readHeader(await build({ width: 64, height: 48 }), limits);
      assert.deepEqual(sidesOf(header), { format, width: 64, height: 48 }, format);
    }
  });

  it('answers undefined for bytes that end before the header does, and reads it from the whole file', async () => {
    for (const build of [pngImage, webpImage, gifImage, avifImage, jpegImage]) {
      assert.equal(await renderer.readHeader((await build()).subarray(0, 16), limits), undefined);
    }
    // The frame header (SOF) of this JPEG comes after 120 KB of comments, past a 64 KiB prefix.
    const jpeg = await jpegImage();
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0xff, 0xff]), Buffer.alloc(0xfffd, 0x20)]);
    const late = Buffer.concat([jpeg.subarray(0, 2), comment, comment, jpeg.subarray(2)]);
    assert.equal(await renderer.readHeader(late.subarray(0, 64 * 1024), limits), undefined);
    assert.deepEqual(sidesOf(await renderer.readHeader(late, limits)), {
      format: 'jpeg',
      width: 64,
      height: 48,
    });
  });

  it('counts the pixels of the first frame of an animated GIF', async () => {
    const frames = await Promise.all(
      ['#d00', '#0d0', '#00d', '#dd0'].map((background) =>
        sharp({ create: { width: 100, height: 100, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    assert.equal((await sharp(animated).metadata()).pages, 4);
    const header = await renderer.readHeader(animated, { ...limits, maxPixels: 15_000 });
    assert.deepEqual(sidesOf(header), { format: 'gif', width: 100, height: 100 });
    const firstFrame = { limits: { ...limits, maxPixels: 15_000 }, timeoutSeconds: 30 };
    const rendition = await renderer.render(
      animated,
      { ...spec, width: 50, height: null, format: 'origin' },
      firstFrame,
    );
    assert.deepEqual([rendition.contentType, rendition.width, rendition.height], ['image/gif', 50, 50]);
    assert.equal((await sharp(rendition.bytes).metadata()).pages, 1);
  });

  it('refuses SVG, PDF, TIFF and bytes that are no image with UNSUPPORTED_MEDIA', async () => {
    for (const bytes of [svgImage(), pdfDocument(), await tiffImage(), Buffer.from('just some text\n')]) {
      await assert.rejects(renderer.readHeader(bytes, limits), withCode('UNSUPPORTED_MEDIA'));
    }
  });
});

describe('a decompression bomb (a 20000×20000 PNG of 49 KB)', () => {
  it('is refused with IMAGE_TOO_LARGE by readHeader, render and summarize, holding no pixels', async () => {
    const bomb = await pngBomb({ width: 20_000, height: 20_000 });
    const before = process.memoryUsage().rss;
    await assert.rejects(renderer.readHeader(bomb, limits), (error) => {
      assert.ok(withCode('IMAGE_TOO_LARGE')(error));
      assert.match((error as Error).message, /400 megapixels, the limit is 50/);
      return true;
    });
    await assert.rejects(renderer.render(bomb, spec, options), withCode('IMAGE_TOO_LARGE'));
    await assert.rejects(renderer.summarize(bomb, options), withCode('IMAGE_TOO_LARGE'));
    // A coarse guard only: a streaming decode need not hold all 400 MB. The proof that no pixel
    // is read is the next test.
    assert.ok(process.memoryUsage().rss - before < 100 * 2 ** 20, 'RSS grew by 100 MiB or more');
  });

  it('is refused from its header: its pixel data is never read', async () => {
    const bomb = await pngBomb({ width: 20_000, height: 20_000, corruptPixelData: true });
    await assert.rejects(renderer.render(bomb, spec, options), withCode('IMAGE_TOO_LARGE'));
    // The same bytes under a limit that lets them through: now they are read, and do not inflate.
    const generous = { limits: { ...limits, maxPixels: 500_000_000 }, timeoutSeconds: 30 };
    await assert.rejects(renderer.render(bomb, spec, generous), withCode('IMAGE_UNREADABLE'));
  });

  it('is a valid PNG (a small one decodes, every pixel black)', async () => {
    const small = await sharp(await pngBomb({ width: 2000, height: 1000 })).stats();
    assert.deepEqual(
      small.channels.map((channel) => channel.max),
      [0],
    );
  });
});

describe('a source in a local file (the disk store hands libvips its version file)', () => {
  it('reads and renders it as it would its bytes, and refuses the same files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'coffer-image-file-'));
    const saved = async (name: string, bytes: Buffer) => {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      return file;
    };
    try {
      const turned = await saved('turned.png', await jpegWithExif({ orientation: 6 }));
      assert.deepEqual(sidesOf(await renderer.readHeader(turned, limits)), {
        format: 'jpeg',
        width: 200,
        height: 300,
      });
      const rendition = await renderer.render(
        turned,
        { ...spec, width: 100, height: null, resize: 'inside' },
        options,
      );
      assert.deepEqual([rendition.contentType, rendition.width, rendition.height], ['image/webp', 100, 150]);
      // Whatever its name says, a file is read by what its bytes are.
      for (const [name, bytes] of [
        ['drawing.png', svgImage()],
        ['paper.jpg', pdfDocument()],
      ] as const) {
        const file = await saved(name, bytes);
        await assert.rejects(renderer.render(file, spec, options), withCode('UNSUPPORTED_MEDIA'), name);
      }
      const bomb = await saved(
        'bomb.png',
        await pngBomb({ width: 20_000, height: 20_000, corruptPixelData: true }),
      );
      await assert.rejects(renderer.render(bomb, spec, options), withCode('IMAGE_TOO_LARGE'));
      await assert.rejects(renderer.summarize(bomb, options), withCode('IMAGE_TOO_LARGE'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
