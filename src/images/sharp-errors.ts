import type { SourceLimits } from '../domain/renditions/image-renderer.ts';
import { isAppError } from '../errors/app-error.ts';
import { imageTooLarge, imageUnreadable, renderBusy, unsupportedMedia } from '../errors/errors.ts';

/** Megapixels as people say them: 400, 12.5. */
export function toMegapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10);
}

/** Bytes as MiB, whole: 321. */
export function toMebibytes(bytes: number): string {
  return String(Math.ceil(bytes / 2 ** 20));
}

/**
 * A failure of sharp while it reads or renders an untrusted source → the AppError that says why.
 * Only failures of a running sharp task come here (a bad option is thrown while the pipeline is
 * built, and stays a bug): those are the source's fault, so none of them may become a 500.
 */
export function toImageError(error: unknown, limits: SourceLimits): unknown {
  if (isAppError(error)) return error;
  const message = error instanceof Error ? error.message : '';
  // sharp's .timeout(): libvips stopped evaluating and said "timeout: N% complete".
  if (message.startsWith('timeout:')) return renderBusy('the render took too long');
  // limitInputPixels, the second guard after readImageHeader: a header that changed its mind.
  if (message.includes('exceeds pixel limit'))
    return imageTooLarge(`it has more than the limit of ${toMegapixels(limits.maxPixels)} megapixels`);
  // No allowed loader recognises the bytes (the others are blocked: configureSharp).
  if (message.includes('unsupported image format')) return unsupportedMedia('The file');
  return imageUnreadable(error);
}
