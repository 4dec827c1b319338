import sharp, { type Metadata } from 'sharp';
import type {
  ImageHeader,
  ImageSource,
  RenderableFormat,
  SourceLimits,
} from '../domain/renditions/image-renderer.ts';
import { imageTooLarge, unsupportedMedia } from '../errors/errors.ts';
import { estimateDecodeBytes } from './render-memory.ts';
import { toImageError, toMebibytes, toMegapixels } from './sharp-errors.ts';

/**
 * What the header of `bytes` (a source's first bytes, or all of them) says, without decoding a
 * pixel; undefined when the bytes end before the header does. Refuses a format Coffer does not
 * render (UNSUPPORTED_MEDIA), a first frame of more than `limits.maxPixels` and one whose decode
 * would take more than `limits.maxMemoryBytes` (IMAGE_TOO_LARGE).
 */
export async function readImageHeader(
  bytes: ImageSource,
  limits: SourceLimits,
): Promise<ImageHeader | undefined> {
  const metadata = await readMetadata(bytes, limits);
  if (!metadata) return undefined;
  const format = toRenderableFormat(metadata);
  if (!format) throw unsupportedMedia(describeFormat(metadata));
  // Every frame of an animation has the first one's size: it is what the pixel limit bounds. The
  // memory of all frames, which an animated render holds, is checked against its spec in render().
  const storedWidth = metadata.width;
  const storedHeight = metadata.pageHeight ?? metadata.height;
  const pixels = storedWidth * storedHeight;
  if (pixels > limits.maxPixels)
    throw imageTooLarge(
      `it has ${toMegapixels(pixels)} megapixels, the limit is ${toMegapixels(limits.maxPixels)}`,
    );
  // security: pixels alone do not bound memory. A 7000×7000 PNG of 400 KB, 16-bit and
  // interlaced, is under the pixel limit and took a worker 0.8 GB: Adam7 forces a whole-image
  // decode, at 6 bytes a pixel. The estimate counts bands, bytes per sample and whole decodes.
  const decodeBytes = estimateDecodeBytes(metadata);
  if (decodeBytes > limits.maxMemoryBytes)
    throw imageTooLarge(
      `decoding it takes about ${toMebibytes(decodeBytes)} MiB of memory, a render may take ${toMebibytes(limits.maxMemoryBytes)} MiB`,
    );
  // EXIF orientations 5–8 turn the image a quarter: it displays with its sides swapped.
  const isTurned = (metadata.orientation ?? 1) >= 5;
  return {
    format,
    width: isTurned ? storedHeight : storedWidth,
    height: isTurned ? storedWidth : storedHeight,
    decodeBytes,
    pages: metadata.pages ?? 1,
  };
}

async function readMetadata(bytes: ImageSource, limits: SourceLimits): Promise<Metadata | undefined> {
  try {
    // metadata() decodes no pixel, so sharp's own pixel limit is lifted here: the limit is
    // checked above, and a refusal can then say how large the image is.
    return await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    // libvips picks the loader from the first bytes, then reads the header. Bytes that end
    // before the header does (a prefix, a truncated file, a header past a large EXIF or ICC
    // block) pass the first step and fail the second, which sharp words "corrupt header".
    // Which format the bytes are is already settled then: an unsupported one fails the first.
    if (error instanceof Error && error.message.includes('has corrupt header')) return undefined;
    throw toImageError(error, limits);
  }
}

function toRenderableFormat(metadata: Metadata): RenderableFormat | undefined {
  switch (metadata.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
      return metadata.format;
    // HEIF holds AVIF (AV1) and HEIC (HEVC, patent-encumbered, and not decoded by sharp's libvips).
    case 'heif':
      return metadata.compression === 'av1' ? 'avif' : undefined;
    default:
      return undefined;
  }
}

function describeFormat(metadata: Metadata): string {
  if (metadata.format === 'heif') return `A HEIF image (${metadata.compression ?? 'unknown'} compressed)`;
  return `A ${metadata.format} file`;
}
