import type { Color, Sharp } from 'sharp';
import type { RenderableFormat } from '../domain/renditions/image-renderer.ts';
import type { OutputFormat } from '../domain/renditions/rendition-spec.ts';

/** What a rendition is written as: a spec's format, or the source's own for `origin`. */
export type WrittenFormat = 'webp' | 'avif' | 'jpeg' | 'png' | 'gif';

export const contentTypes: Record<WrittenFormat, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

const white: Color = { r: 255, g: 255, b: 255, alpha: 1 };
const transparent: Color = { r: 0, g: 0, b: 0, alpha: 0 };

export function toWrittenFormat(format: OutputFormat, source: RenderableFormat): WrittenFormat {
  return format === 'origin' ? source : format;
}

/** What `contain` pads with and transparency becomes: JPEG has no alpha, and black bars read as content. */
export function toBackground(format: WrittenFormat): Color {
  return format === 'jpeg' ? white : transparent;
}

/**
 * Ends a pipeline with the encoder of `format`. PNG (lossless) and GIF (256 colours) ignore
 * `quality`: sharp's PNG quality would quietly reduce the image to a palette.
 */
export function writeAs(pipeline: Sharp, format: WrittenFormat, quality: number): Sharp {
  switch (format) {
    case 'webp':
      return pipeline.webp({ quality });
    case 'avif':
      // security: aom encodes after libvips has produced every pixel, where sharp's timeout no
      // longer looks, so nothing stops it. On a 2-core machine a 12-megapixel rendition of noise
      // took 94 s at the default effort (4), and 3–7 s at effort 0.
      return pipeline.avif({ quality, effort: 0 });
    case 'jpeg':
      return pipeline.flatten({ background: white }).jpeg({ quality });
    case 'png':
      return pipeline.png();
    case 'gif':
      return pipeline.gif();
  }
}
