import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { isAppError } from '../../errors/app-error.ts';
import { fileNotFound, imageTooLargeAsRecorded, mediaUnreadableAsRecorded } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import type { DownloadableFile } from '../files/file-reading.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { ImageRenderer, ImageSource, RenderedImage } from './image-renderer.ts';
import { readImageHead, readWholeImage, type StoredImage } from './read-image-bytes.ts';
import {
  assertMediaSourceSize,
  assertPosterAllowed,
  type MediaOptions,
  readMediaHeader,
  sniffStoredMedia,
  toKnownVideoHeader,
  withMediaFile,
} from './render-media.ts';
import { assertRenderableSource, isMediaType, type RenditionLimits } from './renderable-source.ts';
import type { Rendition, RenditionRefusal, RenditionRepository } from './rendition-repository.ts';
import type { RenditionSpec } from './rendition-spec.ts';

export type RenderRenditionOptions = MediaOptions & {
  renditions: RenditionRepository;
  blobs: BlobStore;
  renderer: ImageRenderer;
  clock: Clock;
  limits: RenditionLimits;
  timeoutSeconds: number;
  /** A video's renditions follow its project's videoRenditions and maxVideoSeconds (issue 39). */
  settingsOf: (projectId: string) => Promise<Pick<ProjectSettings, 'videoRenditions' | 'maxVideoSeconds'>>;
  /** Called with the seconds a render took and the bytes it stored. */
  onRendered?: (seconds: number, sizeBytes: number) => void;
};

/**
 * The blob key of a rendition: under the file's project, named after the file, its version and
 * the spec, so that two nodes rendering the same rendition write versions of one key (the
 * loser deletes its own). The blob collector keeps the versions a rendition row names.
 */
export function toRenditionBlobKey(
  file: { projectId: string; id: string; blobVersion: string },
  spec: string,
) {
  const digest = createHash('sha256').update(`${file.blobVersion}\n${spec}`).digest('base64url').slice(0, 16);
  return `${file.projectId}/${file.id}-r-${digest}`;
}

/** A render made in a slot, not yet stored: the image, and when its render began. */
export type RenderedRendition = { image: RenderedImage; startedAt: number };

/**
 * Renders one rendition of a verified file, in a render slot: the header is checked before the
 * source is decoded or read whole (a bomb costs a header read, never a decode), and a source
 * over the limits is refused for good: the refusal is recorded for its version, so that no later
 * request reads it again (assertNotRefused). Answers the rendition already recorded instead when
 * there is one. storeRendition() then records the image.
 */
export async function renderRendition(
  o: RenderRenditionOptions,
  file: DownloadableFile,
  spec: { canonical: string; parsed: RenditionSpec },
): Promise<Rendition | RenderedRendition> {
  const already = await o.renditions.find(file.id, file.blobVersion, spec.canonical);
  if (already) return already;
  assertRenderableSource(file, o.limits);
  const source = { key: toStorageKey(file), version: file.blobVersion, sizeBytes: file.content.sizeBytes };
  if (isMediaType(file.content.contentType)) return renderFromMedia(o, file, source, spec.parsed);
  const limits = { maxPixels: o.limits.maxPixels, maxMemoryBytes: o.limits.maxMemoryBytes };
  const head = await readImageHead(o.blobs, source);
  const headerOf = (bytes: ImageSource) => refuseForGood(o, file, () => o.renderer.readHeader(bytes, limits));
  const headHeader = await headerOf(head);
  const whole = await readWholeImage(o.blobs, source, head);
  // The header of the whole source when it was read from it (the disk store's file, bytes already
  // whole): render() takes it rather than reading it again. A header past the first bytes (rare:
  // large metadata first) is read from the whole source; one read from a prefix, render() reads again.
  const header = head === whole ? headHeader : headHeader ? undefined : await headerOf(whole);
  const startedAt = performance.now();
  const image = await o.renderer.render(whole, spec.parsed, {
    limits,
    timeoutSeconds: o.timeoutSeconds,
    header,
  });
  return { image, startedAt };
}

/**
 * Phone media (issue 39): the still a sandboxed tool makes of a HEIC or a video (its poster
 * frame), then rendered as any image, already upright. A header over the limits and bytes the
 * tool cannot decode are refused for good, as an image's header is; a video longer than the
 * project's maxVideoSeconds is refused each time (the setting may change).
 */
async function renderFromMedia(
  o: RenderRenditionOptions,
  file: DownloadableFile,
  source: StoredImage,
  spec: RenditionSpec,
): Promise<RenderedRendition> {
  const startedAt = performance.now();
  const settings = await o.settingsOf(file.projectId);
  const limits = { ...toSourceLimits(o.limits), timeoutSeconds: o.timeoutSeconds };
  const still = await withMediaFile(o, source, async (mediaFile) => {
    const header = await refuseForGood(o, file, async () => {
      // A summarized video's probe is on its record: probing again would cost a tool's run.
      const known = toKnownVideoHeader(o, file.image, settings, limits);
      if (known) return known;
      const sniffed = await sniffStoredMedia(o, source, settings);
      assertMediaSourceSize(sniffed.kind, source.sizeBytes, o.limits.maxSourceBytes);
      return readMediaHeader(o, sniffed, mediaFile, limits);
    });
    assertPosterAllowed(header, settings);
    const decode = () => o.media.decodeStill(mediaFile, header, limits, posterSecondsOf(spec));
    // A frame asked for by time may lie past what a store's window holds: only the default
    // still's failure speaks for the whole version.
    return spec.posterAtMs === null ? refuseForGood(o, file, decode) : decode();
  });
  const stillSpec = { ...spec, format: spec.format === 'origin' ? 'jpeg' : spec.format } as const;
  const image = await o.renderer.render(still, stillSpec, {
    limits: toSourceLimits(o.limits),
    timeoutSeconds: o.timeoutSeconds,
    upright: true,
  });
  return { image, startedAt };
}

/** Where a video's poster is taken: the spec's posterAt, else the decoder's default (1 s, or the first frame). */
function posterSecondsOf(spec: RenditionSpec): number | undefined {
  return spec.posterAtMs === null ? undefined : spec.posterAtMs / 1000;
}

function toSourceLimits(limits: RenditionLimits) {
  return { maxPixels: limits.maxPixels, maxMemoryBytes: limits.maxMemoryBytes };
}

/** Refuses a file version whose source was refused before under these limits, with the same answer. */
export async function assertNotRefused(
  renditions: RenditionRepository,
  file: { id: string; blobVersion: string },
  limits: RenditionLimits,
  timeoutSeconds: number,
): Promise<void> {
  const refusal = await renditions.findRefusal(file.id, file.blobVersion);
  if (!refusal || refusal.limits !== toLimitsStamp(refusal.code, limits, timeoutSeconds)) return;
  if (refusal.code === 'MEDIA_UNREADABLE') throw mediaUnreadableAsRecorded(refusal.message);
  throw imageTooLargeAsRecorded(refusal.message);
}

/**
 * The limits a refusal was decided under: a header's pixels and memory; for media a decoder
 * gave up on, its time limit too (a decode killed at 20 s may finish in 60).
 */
function toLimitsStamp(
  code: RenditionRefusal['code'],
  limits: RenditionLimits,
  timeoutSeconds: number,
): string {
  const stamp = `${limits.maxPixels}px ${limits.maxMemoryBytes}B`;
  return code === 'MEDIA_UNREADABLE' ? `${stamp} ${timeoutSeconds}s` : stamp;
}

const rememberedCodes = new Set(['IMAGE_TOO_LARGE', 'MEDIA_UNREADABLE']);

/**
 * Reads a source's header (or decodes phone media), recording an IMAGE_TOO_LARGE or
 * MEDIA_UNREADABLE refusal for the file's version: its bytes never change, so neither does the
 * answer. (A rendition too large at one size and format, refused by render(), is not recorded:
 * other sizes of the same source render.)
 */
async function refuseForGood<T>(
  o: RenderRenditionOptions,
  file: DownloadableFile,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isAppError(error) && rememberedCodes.has(error.code)) {
      const code = error.code as RenditionRefusal['code'];
      await o.renditions.insertRefusal({
        fileId: file.id,
        sourceVersion: file.blobVersion,
        code,
        message: error.message,
        limits: toLimitsStamp(code, o.limits, o.timeoutSeconds),
        createdAt: o.clock.now(),
      });
    }
    throw error;
  }
}

/** A recorded rendition, with its bytes when this call rendered and recorded them (served as they are). */
export type StoredRendition = { rendition: Rendition; bytes?: Buffer };

/**
 * Records a render, out of its slot (the disk's wait is no core's work): the bytes are stored
 * before the row that makes them servable.
 */
export async function storeRendition(
  o: RenderRenditionOptions,
  file: DownloadableFile,
  spec: { canonical: string },
  rendered: Rendition | RenderedRendition,
): Promise<StoredRendition> {
  if (!('image' in rendered)) return { rendition: rendered };
  const { image, startedAt } = rendered;
  const blobKey = toRenditionBlobKey(file, spec.canonical);
  const stored = await o.blobs.put(blobKey, Readable.from([image.bytes]), {
    contentType: image.contentType,
    maxBytes: image.bytes.length,
    // A few KiB already in memory: hashed here rather than posted to the hash thread and back.
    sha256: () => createHash('sha256').update(image.bytes).digest(),
  });
  o.onRendered?.((performance.now() - startedAt) / 1000, image.bytes.length);
  const recorded = await o.renditions.insert({
    fileId: file.id,
    sourceVersion: file.blobVersion,
    spec: spec.canonical,
    blobKey,
    blobVersion: stored.version,
    sizeBytes: image.bytes.length,
    contentType: image.contentType,
    etag: stored.etag,
    width: image.width,
    height: image.height,
    createdAt: o.clock.now(),
  });
  // The file went meanwhile, or another node recorded its render first: ours is not needed.
  if (recorded?.blobVersion !== stored.version) await o.blobs.delete(blobKey, stored.version).catch(() => {});
  if (!recorded) throw fileNotFound();
  return recorded.blobVersion === stored.version
    ? { rendition: recorded, bytes: image.bytes }
    : { rendition: recorded };
}
