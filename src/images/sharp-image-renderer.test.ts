import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from 'thumbhash';
import {
  avifImage,
  gifImage,
  hasGpsInfo,
  jpegImage,
  jpegWithExif,
  noiseJpeg,
  pdfDocument,
  pngImage,
  redCorner,
  svgImage,
  tiffImage,
  webpImage,
} from '../../test/support/test-images.ts';
import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';
import { isAppError } from '../errors/app-error.ts';
import { SharpImageRenderer } from './sharp-image-renderer.ts';

const renderer = new SharpImageRenderer();
const limits = { maxPixels: 50_000_000, maxMemoryBytes: 200 * 2 ** 20 };
const options = { limits, timeoutSeconds: 30 };
const spec = (fields: Partial<RenditionSpec>): RenditionSpec => ({
  width: 200,
  height: 200,
  resize: 'cover',
  format: 'webp',
  quality: 80,
  animated: false,
  posterAtMs: null,
  ...fields,
});
const withCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;
const pixelAt = async (bytes: Buffer, left: number, top: number) => [
  ...(await sharp(bytes).ensureAlpha().extract({ left, top, width: 1, height: 1 }).raw().toBuffer()),
];

describe('render', () => {
  it('takes the header readHeader() read of the same source rather than reading it again, and renders the same bytes', async () => {
    const source = await jpegImage({ width: 300, height: 200 });
    const header = await renderer.readHeader(source, limits);
    assert.ok(header);
    const widthOnly = spec({ width: 100, height: null, resize: 'fill' });
    const given = await renderer.render(source, widthOnly, { ...options, header });
    const read = await renderer.render(source, widthOnly, options);
    assert.deepEqual(given.bytes, read.bytes);
    // The box comes from the header given: a header of another shape gives another box.
    const tall = await renderer.render(source, widthOnly, { ...options, header: { ...header, height: 400 } });
    assert.deepEqual([tall.width, tall.height], [100, 133]);
    assert.deepEqual([read.width, read.height], [100, 67]);
  });

  it('turns an EXIF-rotated JPEG upright and keeps none of its metadata (GPS included)', async () => {
    const source = await jpegWithExif({ width: 300, height: 200, orientation: 6, gps: true });
    const sourceMetadata = await sharp(source).metadata();
    assert.ok(sourceMetadata.exif && hasGpsInfo(sourceMetadata.exif), 'the source carries GPS tags');
    const rendition = await renderer.render(source, spec({}), options);
    assert.equal(rendition.contentType, 'image/webp');
    assert.deepEqual([rendition.width, rendition.height], [200, 200]);
    const metadata = await sharp(rendition.bytes).metadata();
    assert.deepEqual([metadata.format, metadata.width, metadata.height], ['webp', 200, 200]);
    assert.equal(metadata.exif, undefined);
    assert.equal(metadata.orientation, undefined);
    assert.equal(metadata.xmp, undefined);
    assert.equal(await redCorner(rendition.bytes), 'top-left');
  });

  it('turns every EXIF orientation upright', async () => {
    for (let orientation = 1; orientation <= 8; orientation++) {
      const source = await jpegWithExif({ width: 300, height: 200, orientation });
      const { bytes, width, height } = await renderer.render(
        source,
        spec({ width: 150, height: 150, resize: 'inside', format: 'png' }),
        options,
      );
      assert.deepEqual(
        [width, height],
        orientation >= 5 ? [100, 150] : [150, 100],
        `orientation ${orientation}`,
      );
      assert.equal(await redCorner(bytes), 'top-left', `orientation ${orientation}`);
    }
  });

  it('writes AVIF, PNG, JPEG and WebP, and the source format for origin', async () => {
    const source = await pngImage({ width: 300, height: 200 });
    const expected = {
      avif: ['image/avif', 'heif'],
      png: ['image/png', 'png'],
      jpeg: ['image/jpeg', 'jpeg'],
    };
    for (const [format, [contentType, written]] of Object.entries(expected)) {
      const rendition = await renderer.render(source, spec({ format: format as 'avif' }), options);
      assert.equal(rendition.contentType, contentType);
      assert.equal((await sharp(rendition.bytes).metadata()).format, written);
      assert.equal(await redCorner(rendition.bytes), 'top-left', format);
    }
    const sources = { jpeg: jpegImage, png: pngImage, webp: webpImage, gif: gifImage, avif: avifImage };
    for (const [format, build] of Object.entries(sources)) {
      const rendition = await renderer.render(
        await build(),
        spec({ width: 32, height: null, format: 'origin' }),
        options,
      );
      assert.equal(rendition.contentType, `image/${format}`);
      assert.equal((await sharp(rendition.bytes).metadata()).format, format === 'avif' ? 'heif' : format);
    }
  });

  it('sizes each fit as asked', async () => {
    const source = await pngImage({ width: 300, height: 200 });
    const cases: [Partial<RenditionSpec>, [number, number]][] = [
      [{ resize: 'cover' }, [200, 200]],
      [{ resize: 'contain' }, [200, 200]],
      [{ resize: 'fill', height: 100 }, [200, 100]],
      [{ resize: 'inside' }, [200, 133]],
      [{ resize: 'cover', height: null }, [200, 133]],
      [{ resize: 'fill', width: null, height: 100 }, [150, 100]],
      [{ resize: 'inside', width: null, height: 100 }, [150, 100]],
    ];
    for (const [fields, size] of cases) {
      const rendition = await renderer.render(source, spec(fields), options);
      assert.deepEqual([rendition.width, rendition.height], size, JSON.stringify(fields));
      const metadata = await sharp(rendition.bytes).metadata();
      assert.deepEqual([metadata.width, metadata.height], size, JSON.stringify(fields));
    }
  });

  it('never makes a rendition larger than its source, on either side', async () => {
    const tiny = await pngImage({ width: 50, height: 50 });
    const wide = await pngImage({ width: 300, height: 100 });
    const cases: [Buffer, RenditionSpec['resize'], [number, number]][] = [
      [tiny, 'cover', [50, 50]],
      [tiny, 'contain', [50, 50]],
      [tiny, 'fill', [50, 50]],
      [tiny, 'inside', [50, 50]],
      // The box keeps its square shape and shrinks until it fits the source.
      [wide, 'cover', [100, 100]],
      [wide, 'contain', [100, 100]],
      [wide, 'fill', [100, 100]],
      [wide, 'inside', [200, 67]],
    ];
    for (const [source, resize, size] of cases) {
      const rendition = await renderer.render(source, spec({ resize, width: 200, height: 200 }), options);
      assert.deepEqual([rendition.width, rendition.height], size, resize);
    }
  });

  it('pads contain with transparency, or with white for JPEG, and lays transparency on white in JPEG', async () => {
    const source = await pngImage({ width: 300, height: 100 });
    const webp = await renderer.render(source, spec({ resize: 'contain', width: 60, height: 60 }), options);
    assert.equal((await pixelAt(webp.bytes, 0, 0))[3], 0);
    const jpeg = await renderer.render(
      source,
      spec({ resize: 'contain', width: 60, height: 60, format: 'jpeg' }),
      options,
    );
    assert.ok((await pixelAt(jpeg.bytes, 0, 0)).slice(0, 3).every((value) => value > 245));
    const transparent = await pngImage({ width: 64, height: 48, transparent: true });
    const flattened = await renderer.render(transparent, spec({ resize: 'inside', format: 'jpeg' }), options);
    const bottomRight = await pixelAt(flattened.bytes, 60, 44);
    assert.ok(
      bottomRight.slice(0, 3).every((value) => value > 245),
      `transparency became ${bottomRight}`,
    );
  });

  it('answers IMAGE_UNREADABLE for a truncated JPEG or PNG, and renders a JPEG with a mere warning', async () => {
    for (const source of [await jpegImage(), await pngImage()]) {
      const truncated = source.subarray(0, Math.floor(source.length * 0.6));
      await assert.rejects(renderer.render(truncated, spec({}), options), withCode('IMAGE_UNREADABLE'));
    }
    await assert.rejects(renderer.render(Buffer.alloc(0), spec({}), options), withCode('IMAGE_UNREADABLE'));
    // libjpeg warns "3 extraneous bytes before marker 0xda", and decodes the image whole.
    const jpeg = await jpegImage();
    const startOfScan = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    const flawed = Buffer.concat([
      jpeg.subarray(0, startOfScan),
      Buffer.from([1, 2, 3]),
      jpeg.subarray(startOfScan),
    ]);
    assert.equal(await redCorner((await renderer.render(flawed, spec({}), options)).bytes), 'top-left');
  });

  it('refuses SVG, PDF and TIFF, and sharp itself no longer reads them', async () => {
    const refused = [svgImage(), pdfDocument(), await tiffImage()];
    for (const bytes of refused) {
      await assert.rejects(renderer.render(bytes, spec({}), options), withCode('UNSUPPORTED_MEDIA'));
      await assert.rejects(renderer.summarize(bytes, options), withCode('UNSUPPORTED_MEDIA'));
    }
    // This sharp's libvips has SVG and TIFF loaders: only the block keeps them out of reach.
    assert.ok(sharp.format.svg.input.buffer && sharp.format.tiff.input.buffer);
    for (const bytes of refused)
      await assert.rejects(sharp(bytes).png().toBuffer(), /unsupported image format/);
  });

  it('answers RENDER_BUSY when the render outlasts its timeout', async () => {
    const source = await noiseJpeg({ width: 4096, height: 3072 });
    const huge = spec({ width: 4096, height: 4096, resize: 'inside', quality: 100 });
    await assert.rejects(
      renderer.render(source, huge, { limits, timeoutSeconds: 1 }),
      withCode('RENDER_BUSY'),
    );
  });
});

describe('summarize', () => {
  it('gives the displayed sides and a ThumbHash of the upright image', async () => {
    const source = await jpegWithExif({ width: 300, height: 200, orientation: 6 });
    const summary = await renderer.summarize(source, options);
    assert.equal(summary.width, 200);
    assert.equal(summary.height, 300);
    assert.match(summary.placeholder ?? '', /^[A-Za-z0-9+/]+={0,2}$/);
    const hash = Buffer.from(summary.placeholder!, 'base64');
    assert.ok(Math.abs(thumbHashToApproximateAspectRatio(hash) - 2 / 3) < 0.1);
    const { w, h, rgba } = thumbHashToRGBA(hash);
    const redness = (x: number, y: number) => rgba[(y * w + x) * 4]! - rgba[(y * w + x) * 4 + 2]!;
    assert.ok(redness(1, 1) > redness(w - 2, h - 2), 'the top left is red, the bottom right blue');
  });
});
