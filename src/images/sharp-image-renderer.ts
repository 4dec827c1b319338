import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import type {
  ImageHeader,
  ImageRenderer,
  ImageSource,
  ImageSummary,
  RenderedImage,
  RenderOptions,
  SourceLimits,
} from '../domain/renditions/image-renderer.ts';
import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';
import { imageTooLarge, imageUnreadable } from '../errors/errors.ts';
import { configureSharp } from './configure-sharp.ts';
import { contentTypes, toBackground, toWrittenFormat, writeAs } from './output-format.ts';
import { readImageHeader } from './read-image-header.ts';
import { estimateRenditionBytes, isAnimatedRender } from './render-memory.ts';
import { toRenditionSize } from './rendition-size.ts';
import { toImageError, toMebibytes } from './sharp-errors.ts';

/** ThumbHash encodes images of at most 100×100. */
const placeholderSide = 100;

/** Renders JPEG, PNG, WebP, GIF and AVIF sources with sharp (libvips), in this process. */
export class SharpImageRenderer implements ImageRenderer {
  constructor() {
    configureSharp();
  }

  readHeader(prefix: ImageSource, limits: SourceLimits): Promise<ImageHeader | undefined> {
    return readImageHeader(prefix, limits);
  }

  async render(source: ImageSource, spec: RenditionSpec, options: RenderOptions): Promise<RenderedImage> {
    const header = options.header ?? (await readWholeHeader(source, options.limits));
    const format = toWrittenFormat(spec.format, header.format);
    const isAnimated = isAnimatedRender(header, spec);
    // The encoder holds the whole rendition too (AVIF ~22 bytes a pixel): a source that decodes
    // within the budget may still be too large at this size and format, never at a thumbnail's.
    // An animated render holds every frame: refused here, from the header's frame count, before
    // any frame is decoded.
    const memoryBytes = estimateRenditionBytes(header, spec);
    if (memoryBytes > options.limits.maxMemoryBytes)
      throw imageTooLarge(
        `this rendition takes about ${toMebibytes(memoryBytes)} MiB of memory, a render may take ${toMebibytes(options.limits.maxMemoryBytes)} MiB; ${isAnimated ? `it has ${header.pages} frames: ask for a smaller size, or without animated=true` : 'ask for a smaller size or another format'}`,
      );
    const pipeline = openSource(source, options, isAnimated ? header : undefined).resize({
      ...toRenditionSize(header, spec),
      fit: spec.resize,
      withoutEnlargement: true,
      background: toBackground(format),
    });
    // An animation's frames keep their delays and loop count: sharp carries them to the WebP.
    const { data, info } = await run(writeAs(pipeline, format, spec.quality), options);
    // An animation is written as a strip of its frames: the rendition's height is one frame's.
    const height = isAnimated ? (info.pageHeight ?? info.height) : info.height;
    return { bytes: data, contentType: contentTypes[format], width: info.width, height };
  }

  async summarize(source: ImageSource, options: RenderOptions): Promise<ImageSummary> {
    const header = await readWholeHeader(source, options.limits);
    const pipeline = openSource(source, options)
      .resize({ width: placeholderSide, height: placeholderSide, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw();
    const { data, info } = await run(pipeline, options);
    const hash = rgbaToThumbHash(info.width, info.height, data);
    // Standard base64 with its padding, as thumbhash's own examples write it (atob reads it).
    return { width: header.width, height: header.height, placeholder: Buffer.from(hash).toString('base64') };
  }
}

/** The header of a whole source: bytes that end before their header does are damaged. */
async function readWholeHeader(source: ImageSource, limits: SourceLimits): Promise<ImageHeader> {
  const header = await readImageHeader(source, limits);
  if (!header) throw imageUnreadable();
  return header;
}

/**
 * Opens a source for one pipeline: its first frame, or, given the header of an animation to
 * render animated, every frame (libvips reads them as one strip, each frame resized alone).
 */
function openSource(
  source: ImageSource,
  options: RenderOptions,
  animation?: Pick<ImageHeader, 'width' | 'height' | 'pages'>,
): Sharp {
  return sharp(source, {
    // A second guard after the header check (readHeader or readWholeHeader), in case libvips
    // reads a header differently twice; an animation's strip counts every frame: exactly those
    // its budget was checked for.
    limitInputPixels: animation
      ? animation.width * animation.height * animation.pages
      : options.limits.maxPixels,
    // 'error', not sharp's default 'warning': a warning is a flaw that the decoder recovered from
    // (extraneous bytes before a JPEG marker, common in phone photos), and failing on it protects
    // nothing, since the decoder has already parsed those bytes. Broken or truncated pixel data
    // still fails, as IMAGE_UNREADABLE.
    failOn: 'error',
    // The first frame of an animated GIF, WebP or AVIF (the one the pixel limit was checked on),
    // unless the spec asks for every frame of a GIF or WebP.
    animated: animation !== undefined,
    sequentialRead: true,
    autoOrient: options.upright !== true,
  }).timeout({ seconds: toTimeoutSeconds(options.timeoutSeconds) });
}

async function run(pipeline: Sharp, options: RenderOptions): Promise<{ data: Buffer; info: OutputInfo }> {
  try {
    return await pipeline.toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw toImageError(error, options.limits);
  }
}

/** sharp counts whole seconds, 1–3600 (0 would mean no timeout at all). */
function toTimeoutSeconds(seconds: number): number {
  return Math.min(3600, Math.max(1, Math.ceil(seconds)));
}
