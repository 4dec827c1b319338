import { imageTooLarge, unsupportedMedia } from '../../errors/errors.ts';
import type { FileRecord } from '../files/file-record.ts';
import { formatBytes } from '../format-bytes.ts';

/** The limits a source must keep to be rendered (settings COFFER_RENDITION_MAX_*). */
export type RenditionLimits = { maxPixels: number; maxSourceBytes: number; maxMemoryBytes: number };

/** The content types of the formats Coffer renders (image-renderer.ts's renderableFormats). */
const renderableTypes = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

/** Phone media (issue 39), decoded only by sandboxed tools (media-decoder.ts): which kind is told by the bytes. */
const mediaTypes = new Set([
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'video/x-matroska',
]);

/** Every type a rendition is made of (the client keeps the same list: test/client/client-media.test.ts). */
export const renderedTypes: readonly string[] = [...renderableTypes, ...mediaTypes];

const toEssence = (contentType: string) => contentType.split(';', 1)[0]!.trim().toLowerCase();

/** A still image sharp renders itself. */
export function isRenderableType(contentType: string): boolean {
  return renderableTypes.has(toEssence(contentType));
}

/** A HEIC/HEIF photo or a video, rendered from a still the media decoder makes. */
export function isMediaType(contentType: string): boolean {
  return mediaTypes.has(toEssence(contentType));
}

/** A GIF or WebP: the sources an animated rendition keeps every frame of. */
export function mayBeAnimated(contentType: string): boolean {
  const essence = toEssence(contentType);
  return essence === 'image/gif' || essence === 'image/webp';
}

/** A video's type: its renditions follow the project's videoRenditions setting. */
export function isVideoType(contentType: string): boolean {
  return isMediaType(contentType) && contentType.startsWith('video/');
}

/** Whether a verified file of this type waits for a summary (size, placeholder; a video's probe). */
export function isSummarizedType(contentType: string): boolean {
  return contentType.startsWith('image/') || contentType.startsWith('video/');
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
  if (!isRenderableType(contentType) && !isMediaType(contentType))
    throw unsupportedMedia(`A file of type ${contentType}`);
  // A video is read by its tools in a bounded window (src/media/media-files.ts), whatever its size.
  if (!isVideoType(contentType) && sizeBytes > limits.maxSourceBytes)
    throw imageTooLarge(`${formatBytes(sizeBytes)}, the limit is ${formatBytes(limits.maxSourceBytes)}`);
  const pixels = file.image ? file.image.width * file.image.height : 0;
  if (pixels > limits.maxPixels) throw imageTooLarge(toMegapixelsText(pixels, limits.maxPixels));
}

export function toMegapixelsText(pixels: number, maxPixels: number): string {
  const megapixels = (count: number) => `${Math.round(count / 100_000) / 10} megapixels`;
  return `${megapixels(pixels)}, the limit is ${megapixels(maxPixels)}`;
}
