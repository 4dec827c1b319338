import { imageTooLarge, mediaUnreadable, unsupportedMedia } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { ImageMeta } from '../files/file-record.ts';
import { formatBytes } from '../format-bytes.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type {
  MediaDecoder,
  MediaFile,
  MediaHeader,
  MediaKind,
  MediaLimits,
  VideoHeader,
} from './media-decoder.ts';
import { headerPrefixBytes, readImageBytes, type StoredImage } from './read-image-bytes.ts';
import { toMegapixelsText } from './renderable-source.ts';
import { sniffMediaKind } from './sniff-media-kind.ts';

/** What the render path and the summarizer need to take phone media (issue 39). */
export type MediaOptions = {
  media: MediaDecoder;
  /** A local file of a stored version for the tools (src/media/media-files.ts). */
  openMediaFile: (source: StoredImage) => Promise<MediaFile>;
  blobs: BlobStore;
};

/**
 * The kind of phone media a stored version is, told by its bytes (its content type only let it
 * in): UNSUPPORTED_MEDIA for bytes of neither kind, a kind this server has no decoder for, and a
 * video of a project whose `videoRenditions` is off.
 */
export async function sniffStoredMedia(
  o: MediaOptions,
  source: StoredImage,
  settings: Pick<ProjectSettings, 'videoRenditions'>,
): Promise<{ kind: MediaKind; prefix: Buffer }> {
  const prefix = await readImageBytes(o.blobs, source, { firstBytes: headerPrefixBytes });
  const kind = sniffMediaKind(prefix);
  if (!kind) throw unsupportedMedia('A file whose bytes are neither an image Coffer renders nor a video');
  if (!o.media.supports(kind))
    throw unsupportedMedia(
      `A ${kind === 'heif' ? 'HEIC photo' : 'video'} (this server has no decoder for it)`,
    );
  if (kind === 'video') assertVideoRenditionsOn(settings);
  return { kind, prefix };
}

/** A project whose `videoRenditions` is off renders no video (415), though its metadata is probed. */
export function assertVideoRenditionsOn(settings: Pick<ProjectSettings, 'videoRenditions'>): void {
  if (settings.videoRenditions === 'off')
    throw unsupportedMedia("A video (the project's videoRenditions setting is off)");
}

/**
 * The header of phone media: a HEIF's from its first bytes (no tool runs; IMAGE_TOO_LARGE for
 * declared sides over the pixel limit), a video's by the prober on a local file.
 */
export async function readMediaHeader(
  o: MediaOptions,
  sniffed: { kind: MediaKind; prefix: Buffer },
  file: MediaFile,
  limits: MediaLimits,
): Promise<MediaHeader> {
  if (sniffed.kind === 'video') return o.media.probeVideo(file, limits);
  const header = o.media.readHeifHeader(sniffed.prefix, limits);
  if (!header) throw mediaUnreadable('its header is not within its first bytes');
  return header;
}

/**
 * The header of a video whose summary is on its record (its own probe of this version: the
 * summary is saved for the blob version it read), held to the same rules as a fresh probe's.
 */
export function toKnownVideoHeader(
  o: MediaOptions,
  image: ImageMeta | null,
  settings: Pick<ProjectSettings, 'videoRenditions'>,
  limits: Pick<MediaLimits, 'maxPixels'>,
): VideoHeader | undefined {
  if (!image?.video) return undefined;
  if (!o.media.supports('video')) throw unsupportedMedia('A video (this server has no decoder for it)');
  assertVideoRenditionsOn(settings);
  const pixels = image.width * image.height;
  if (pixels > limits.maxPixels) throw imageTooLarge(toMegapixelsText(pixels, limits.maxPixels));
  return { kind: 'video', width: image.width, height: image.height, ...image.video };
}

/** A HEIF is an image: its file size is bounded as any image's; a video's is read in a bounded window. */
export function assertMediaSourceSize(kind: MediaKind, sizeBytes: number, maxSourceBytes: number): void {
  if (kind === 'heif' && sizeBytes > maxSourceBytes)
    throw imageTooLarge(`${formatBytes(sizeBytes)}, the limit is ${formatBytes(maxSourceBytes)}`);
}

/** A video longer than the project's maxVideoSeconds is probed but gets no poster. */
export function assertPosterAllowed(header: MediaHeader, settings: Pick<ProjectSettings, 'maxVideoSeconds'>) {
  if (header.kind === 'video' && header.durationSeconds > settings.maxVideoSeconds)
    throw imageTooLarge(
      `the video lasts ${Math.round(header.durationSeconds)} s; posters are made of videos up to ${settings.maxVideoSeconds} s (the project's maxVideoSeconds)`,
    );
}

/**
 * Runs `use` with a local file of the source for the tools, removed after (a disk store's own
 * file is only named, never removed).
 */
export async function withMediaFile<T>(
  o: MediaOptions,
  source: StoredImage,
  use: (file: MediaFile) => Promise<T>,
): Promise<T> {
  const file = await o.openMediaFile(source);
  try {
    return await use(file);
  } finally {
    await file.release().catch(() => {});
  }
}
