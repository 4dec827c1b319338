/** How a rendition fits width × height: `cover` (the default) crops, `contain` letterboxes, `fill` stretches, `inside` only shrinks. */
export type RenditionResize = 'cover' | 'contain' | 'fill' | 'inside';

/** The rendition's encoding; `origin` (the default) keeps the source's. */
export type RenditionFormat = 'origin' | 'webp' | 'avif' | 'jpeg' | 'png';

/** A rendition by its parameters: at least one side (1–4096); a missing side follows the image's aspect ratio. */
export type RenditionParameters = {
  width?: number;
  height?: number;
  resize?: RenditionResize;
  format?: RenditionFormat;
  /** 20–100, default 80. */
  quality?: number;
  rendition?: never;
} & StillChoice;

/**
 * What may go beside parameters or a preset name: which frame of a video or animation the
 * rendition shows. The server drops `posterAt` for a source that is no video, so one URL
 * shape serves a gallery of mixed media.
 */
export type StillChoice = {
  /** A video's poster frame at these seconds (0–86400, at most 3 decimals); default 1 s, or the first frame of a shorter clip. */
  posterAt?: number;
  /** Every frame of an animated GIF or WebP, with its timing, as an animated WebP (needs `format: 'webp'`); else the first frame. */
  animated?: boolean;
};

/** A rendition by the name of one of the project's presets (`coffer project set <p> renditions.<name>=…`). */
export type RenditionPreset = {
  rendition: string;
  width?: never;
  height?: never;
  resize?: never;
  format?: never;
  quality?: never;
} & StillChoice;

/**
 * What `get()` takes: the link's lifetime and, for images, either a preset or parameters (the
 * server refuses both at once), or an earlier version; with none, the link is to the file's own bytes.
 */
export type GetOptions = { expiresInSeconds?: number } & (
  | RenditionParameters
  | RenditionPreset
  | VersionChoice
);

/** An earlier version of the file (its record and a link to its bytes), from versions(). */
export type VersionChoice = {
  versionId: string;
  rendition?: never;
  width?: never;
  height?: never;
  resize?: never;
  format?: never;
  quality?: never;
  posterAt?: never;
  animated?: never;
};

/** The query string of GET /api/v1/file/:fileId for these options (absent ones left out). */
export function toGetQuery(options: GetOptions): Record<string, string | number | undefined> {
  return {
    expiresInSeconds: options.expiresInSeconds,
    rendition: options.rendition,
    width: options.width,
    height: options.height,
    resize: options.resize,
    format: options.format,
    quality: options.quality,
    posterAt: options.posterAt,
    animated: options.animated === undefined ? undefined : String(options.animated),
    versionId: 'versionId' in options ? options.versionId : undefined,
  };
}
