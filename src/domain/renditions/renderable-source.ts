import { imageTooLarge, unsupportedMedia } from '../../errors/errors.ts';
import type { FileRecord } from '../files/file-record.ts';
import { formatBytes } from '../format-bytes.ts';

/** The limits a source must keep to be rendered (settings COFFER_RENDITION_MAX_*). */
export type RenditionLimits = { maxPixels: number; maxSourceBytes: number; maxMemoryBytes: number };

/** The content types of the formats Coffer renders (image-renderer.ts's renderableFormats). */
const renderableTypes = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

export function isRenderableType(contentType: string): boolean {
  return renderableTypes.has(contentType.split(';', 1)[0]!.trim().toLowerCase());
}

/**
 * Refuses, from what the record already knows, a file that will not render: not an image type
 * Coffer renders (UNSUPPORTED_MEDIA), more bytes or (once summarized) more pixels than the
 * limits (IMAGE_TOO_LARGE). The renderer checks the header again before decoding.
 */
export function assertRenderableSource(
  file: Pick<FileRecord, 'content' | 'image'> & { content: { contentType: string; sizeBytes: number } },
  limits: RenditionLimits,
): void {
  const { contentType, sizeBytes } = file.content;
  if (!isRenderableType(contentType)) throw unsupportedMedia(`A file of type ${contentType}`);
  if (sizeBytes > limits.maxSourceBytes)
    throw imageTooLarge(`${formatBytes(sizeBytes)}, the limit is ${formatBytes(limits.maxSourceBytes)}`);
  const pixels = file.image ? file.image.width * file.image.height : 0;
  if (pixels > limits.maxPixels) throw imageTooLarge(toMegapixelsText(pixels, limits.maxPixels));
}

export function toMegapixelsText(pixels: number, maxPixels: number): string {
  const megapixels = (count: number) => `${Math.round(count / 100_000) / 10} megapixels`;
  return `${megapixels(pixels)}, the limit is ${megapixels(maxPixels)}`;
}
