import type { RenditionSpec } from './rendition-spec.ts';

/** The source formats Coffer renders (issue 21): anything else is UNSUPPORTED_MEDIA. */
export const renderableFormats = ['jpeg', 'png', 'webp', 'gif', 'avif'] as const;
export type RenderableFormat = (typeof renderableFormats)[number];

/** What an image's header says, read without decoding a pixel. */
export type ImageHeader = {
  format: RenderableFormat;
  /** As displayed: EXIF orientations 5–8 swap the stored width and height. */
  width: number;
  height: number;
  /**
   * The memory decoding it takes, estimated from the header (src/images/render-memory.ts): the
   * whole image where the format forces a whole-image decode, else the rows a streamed decode
   * holds. Rendering adds what the encoder holds (estimateRenderBytes).
   */
  decodeBytes: number;
  /**
   * The frames of an animated GIF or WebP, counted from the header (1 for a still). Renders take
   * the first, or every one for an `animated` spec (issue 39), whose budget counts them all.
   */
  pages: number;
};

/**
 * An image to read: its bytes, or the path of a local file holding them (a disk store's version
 * file, which libvips then reads itself: the process holds no copy of the source).
 */
export type ImageSource = Buffer | string;

/** The limits a source must keep before any decoding (settings COFFER_RENDITION_MAX_*). */
export type SourceLimits = {
  maxPixels: number;
  /** The memory one render or summary may take, decoding and encoding (the render budget). */
  maxMemoryBytes: number;
};

/** A rendered image, held whole: renditions are bounded by 4096×4096 and are stored at once. */
export type RenderedImage = {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
};

/** Dimensions and a ThumbHash (base64) of a verified image, for its record's `meta`. */
export type ImageSummary = { width: number; height: number; placeholder: string | null };

export type RenderOptions = {
  limits: SourceLimits;
  timeoutSeconds: number;
  /**
   * The source is upright already (a still the media decoder made, issue 39): any EXIF
   * orientation it carries is not applied again.
   */
  upright?: boolean;
  /**
   * The header of this very source, read by readHeader() under these same limits: render()
   * then does not read it a second time (a libvips open and header parse per render).
   */
  header?: ImageHeader;
};

/**
 * Renders images (implemented over sharp in src/images/). Every method refuses, from the header
 * and before decoding: an unsupported format (SVG, PDF, TIFF, HEIC, …) with UNSUPPORTED_MEDIA,
 * a source over the limits (pixels, or the memory its decode takes) with IMAGE_TOO_LARGE, bytes
 * that do not decode with IMAGE_UNREADABLE. render() also refuses, with IMAGE_TOO_LARGE, a
 * rendition whose decode and encode together would pass the memory budget (a large AVIF, or
 * every frame of a long animation).
 */
export interface ImageRenderer {
  /** Reads the header of a source's first bytes (or all of them); undefined when they are too few. */
  readHeader(prefix: ImageSource, limits: SourceLimits): Promise<ImageHeader | undefined>;
  /**
   * The rendition of a whole source: auto-oriented, never enlarged, without any metadata of the
   * source; RENDER_BUSY when it takes longer than `timeoutSeconds`. An `animated` spec of an
   * animated source renders every frame, each resized, keeping its delay and the loop count.
   * The rendition's `height` is that of one frame.
   */
  render(source: ImageSource, spec: RenditionSpec, options: RenderOptions): Promise<RenderedImage>;
  /** Dimensions and placeholder of a whole source (a ThumbHash of at most 100×100). */
  summarize(source: ImageSource, options: RenderOptions): Promise<ImageSummary>;
}
