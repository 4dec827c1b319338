import { createCipheriv } from 'node:crypto';
import sharp from 'sharp';

// Animated GIFs and WebPs for the renderer's tests and the renditions API tests (issue 39), made
// by sharp from frames of one flat colour each, so that a test can tell every frame of a
// rendition by its colour, and read back each one's delay.

export type AnimationFormat = 'gif' | 'webp';
export type Rgb = readonly [number, number, number];

/** The colours of animatedImage()'s frames, in order: red, green, blue. */
export const frameColours: readonly Rgb[] = [
  [220, 30, 30],
  [30, 200, 60],
  [30, 60, 200],
];
/** The delays of animatedImage()'s frames, in milliseconds. */
export const frameDelaysMs = [100, 200, 300] as const;

/**
 * An animation of one flat colour per frame (frameColours unless said), `width`×`height`, with
 * `delaysMs` per frame and `loop` repeats (0: forever). WebP frames are lossless.
 */
export async function animatedImage(
  options: {
    format: AnimationFormat;
    width?: number;
    height?: number;
    colours?: readonly Rgb[];
    delaysMs?: readonly number[];
    loop?: number;
  } = { format: 'gif' },
): Promise<Buffer> {
  const { format, width = 120, height = 80, colours = frameColours, loop = 0 } = options;
  const delay = [...(options.delaysMs ?? frameDelaysMs)];
  const frames = await Promise.all(
    colours.map(([r, g, b]) =>
      sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer(),
    ),
  );
  // sharp joins two frames or more; one is a still with an animation's delay and loop.
  const joined = frames.length === 1 ? sharp(frames[0]) : sharp(frames, { join: { animated: true } });
  return (
    format === 'gif' ? joined.gif({ delay, loop }) : joined.webp({ delay, loop, lossless: true })
  ).toBuffer();
}

/** A GIF of `count` frames of `side`×`side`, each a colour of its own (none merged by the encoder). */
export function manyFrames(options: { count: number; side: number }): Promise<Buffer> {
  const colours = Array.from(
    { length: options.count },
    (_, index): Rgb => [(index * 37) % 256, (index * 91 + 40) % 256, (index * 53 + 80) % 256],
  );
  const delaysMs = colours.map(() => 40);
  return animatedImage({ format: 'gif', width: options.side, height: options.side, colours, delaysMs });
}

/**
 * An animation of `frames` frames of noise, each different (AES-CTR under a zero key: the same
 * bytes every run): the worst case for the decoders and for the animation encoder.
 */
export async function noiseAnimation(options: {
  format: AnimationFormat;
  side: number;
  frames: number;
}): Promise<Buffer> {
  const { format, side, frames: count } = options;
  const noise = createCipheriv('aes-128-ctr', Buffer.alloc(16), Buffer.alloc(16)).update(
    Buffer.alloc(side * side * 3 * count),
  );
  const frames = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      sharp(noise.subarray(index * side * side * 3, (index + 1) * side * side * 3), {
        raw: { width: side, height: side, channels: 3 },
      })
        .png({ compressionLevel: 1 })
        .toBuffer(),
    ),
  );
  const joined = sharp(frames, { join: { animated: true } });
  return (
    format === 'gif'
      ? joined.gif({ delay: 100, effort: 1, dither: 0 })
      : joined.webp({ delay: 100, quality: 60 })
  ).toBuffer();
}

/**
 * A GIF whose frames after the first hold garbage in place of their LZW data, every block
 * structure intact: its header (frame count and sizes) reads as before, its first frame decodes,
 * and a decode of every frame fails. A render refused from the header never finds out.
 */
export function withBrokenLaterFrames(gif: Buffer): Buffer {
  const bytes = Buffer.from(gif);
  const hasGlobalTable = (bytes[10]! & 0x80) !== 0;
  let at = 13 + (hasGlobalTable ? 3 * 2 ** ((bytes[10]! & 0x07) + 1) : 0);
  let frame = 0;
  const skipSubBlocks = (fill: boolean) => {
    while (bytes[at] !== 0) {
      const length = bytes[at]!;
      if (fill) bytes.fill(0xff, at + 1, at + 1 + length);
      at += 1 + length;
    }
    at += 1;
  };
  while (at < bytes.length && bytes[at] !== 0x3b) {
    if (bytes[at] === 0x21) {
      at += 2; // extension introducer and label, then its sub-blocks
      skipSubBlocks(false);
    } else if (bytes[at] === 0x2c) {
      const packed = bytes[at + 9]!;
      at += 10 + ((packed & 0x80) !== 0 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
      at += 1; // LZW minimum code size
      skipSubBlocks(frame > 0);
      frame += 1;
    } else throw new Error(`not a GIF block at ${at}: ${bytes[at]}`);
  }
  return bytes;
}
