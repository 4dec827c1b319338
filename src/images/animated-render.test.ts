import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import {
  type AnimationFormat,
  animatedImage,
  frameColours,
  frameDelaysMs,
  manyFrames,
  type Rgb,
  withBrokenLaterFrames,
} from '../../test/support/animated-images.ts';
import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';
import { isAppError } from '../errors/app-error.ts';
import { SharpImageRenderer } from './sharp-image-renderer.ts';

/** Issue 39: an animated GIF or WebP, asked for animated, renders to an animated WebP. */
const renderer = new SharpImageRenderer();
const limits = { maxPixels: 50_000_000, maxMemoryBytes: 200 * 2 ** 20 };
const options = { limits, timeoutSeconds: 30 };
const spec = (fields: Partial<RenditionSpec>): RenditionSpec => ({
  width: 60,
  height: 60,
  resize: 'cover',
  format: 'webp',
  quality: 80,
  animated: true,
  posterAtMs: null,
  ...fields,
});
const withCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;

/** Each frame's centre pixel, read back from a WebP's pages. */
async function frameCentres(bytes: Buffer): Promise<Rgb[]> {
  const { pages = 1, width = 0, height = 0 } = await sharp(bytes).metadata();
  const centres: Rgb[] = [];
  for (let page = 0; page < pages; page++) {
    const { data, info } = await sharp(bytes, { page })
      .extract({ left: Math.floor(width / 2), top: Math.floor(height / 2), width: 1, height: 1 })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.equal(info.channels, 3);
    centres.push([data[0]!, data[1]!, data[2]!]);
  }
  return centres;
}

/** Colours within what lossy WebP (and a GIF's palette) leave of a flat colour. */
function assertColours(actual: readonly Rgb[], expected: readonly Rgb[]) {
  assert.equal(actual.length, expected.length, JSON.stringify(actual));
  for (const [index, colour] of actual.entries()) {
    const distance = Math.max(
      ...colour.map((value, channel) => Math.abs(value - expected[index]![channel]!)),
    );
    assert.ok(distance <= 24, `frame ${index} is ${colour}, not ${expected[index]}`);
  }
}

describe('animated renders', () => {
  for (const format of ['gif', 'webp'] as const satisfies AnimationFormat[]) {
    it(`an animated ${format} → an animated WebP of every frame, its delays and loop count, at the asked size`, async () => {
      const source = await animatedImage({ format, width: 120, height: 80, loop: 2 });
      const cases: [Partial<RenditionSpec>, [number, number]][] = [
        [{}, [60, 60]],
        [{ resize: 'inside', height: null }, [60, 40]],
        [{ resize: 'contain', width: 40, height: 40 }, [40, 40]],
        [{ resize: 'fill', width: 50, height: 20 }, [50, 20]],
      ];
      for (const [fields, [width, height]] of cases) {
        const rendition = await renderer.render(source, spec(fields), options);
        assert.deepEqual(
          [rendition.contentType, rendition.width, rendition.height],
          ['image/webp', width, height],
          JSON.stringify(fields),
        );
        const metadata = await sharp(rendition.bytes).metadata();
        assert.equal(metadata.format, 'webp');
        assert.deepEqual([metadata.width, metadata.height], [width, height], 'each frame has the asked size');
        assert.equal(metadata.pages, 3);
        assert.deepEqual(metadata.delay, [...frameDelaysMs]);
        assert.equal(metadata.loop, 2);
        assertColours(await frameCentres(rendition.bytes), frameColours);
      }
    });

    it(`an animated ${format} without animated=true → its first frame, as before`, async () => {
      const source = await animatedImage({ format });
      for (const fields of [{ animated: false }, { animated: false, format: 'png' as const }]) {
        const rendition = await renderer.render(source, spec(fields), options);
        assert.deepEqual([rendition.width, rendition.height], [60, 60]);
        const metadata = await sharp(rendition.bytes).metadata();
        assert.equal(metadata.pages ?? 1, 1);
        assertColours(await frameCentres(rendition.bytes), [frameColours[0]!]);
      }
    });
  }

  it('renders a GIF of one frame as a still when asked animated', async () => {
    const source = await animatedImage({ format: 'gif', colours: [frameColours[1]!], delaysMs: [500] });
    const rendition = await renderer.render(source, spec({}), options);
    assert.deepEqual([rendition.contentType, rendition.width, rendition.height], ['image/webp', 60, 60]);
    assert.equal((await sharp(rendition.bytes).metadata()).pages ?? 1, 1);
    assertColours(await frameCentres(rendition.bytes), [frameColours[1]!]);
  });

  it('refuses an animation whose frames pass the memory budget from its header, decoding none', async () => {
    // 60 frames of 400×400: 38 MB of frames, over a 40 MiB budget once the render's own share is
    // counted; the first frame alone (0.6 MB) is well within it.
    const broken = withBrokenLaterFrames(await manyFrames({ count: 60, side: 400 }));
    assert.equal((await sharp(broken).metadata()).pages, 60);
    const small = { limits: { ...limits, maxMemoryBytes: 40 * 2 ** 20 }, timeoutSeconds: 30 };
    await assert.rejects(renderer.render(broken, spec({ width: 100, height: 100 }), small), (error) => {
      assert.ok(withCode('IMAGE_TOO_LARGE')(error), String(error));
      assert.match(
        (error as Error).message,
        /it has 60 frames: ask for a smaller size, or without animated=true/,
      );
      return true;
    });
    // Its later frames do not decode: a budget that lets it through finds that out.
    await assert.rejects(
      renderer.render(broken, spec({ width: 100, height: 100 }), options),
      withCode('IMAGE_UNREADABLE'),
    );
    // Its first frame renders within the small budget.
    const still = await renderer.render(broken, spec({ width: 100, height: 100, animated: false }), small);
    assert.deepEqual([still.width, still.height], [100, 100]);
  });
});
