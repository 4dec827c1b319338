import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { isAppError } from '../../errors/app-error.ts';
import { fileNotFound, imageTooLargeAsRecorded } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import type { DownloadableFile } from '../files/file-reading.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { ImageHeader, ImageRenderer, ImageSource, RenderedImage } from './image-renderer.ts';
import { readImageHead, readWholeImage } from './read-image-bytes.ts';
import { assertRenderableSource, type RenditionLimits } from './renderable-source.ts';
import type { Rendition, RenditionRepository } from './rendition-repository.ts';
import type { RenditionSpec } from './rendition-spec.ts';

export type RenderRenditionOptions = {
  renditions: RenditionRepository;
  blobs: BlobStore;
  renderer: ImageRenderer;
  clock: Clock;
  limits: RenditionLimits;
  timeoutSeconds: number;
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
  const limits = { maxPixels: o.limits.maxPixels, maxMemoryBytes: o.limits.maxMemoryBytes };
  const head = await readImageHead(o.blobs, source);
  const headerOf = (bytes: ImageSource) => refuseForGood(o, file, () => o.renderer.readHeader(bytes, limits));
  const header = await headerOf(head);
  const whole = await readWholeImage(o.blobs, source, head);
  // A header past the first bytes (rare: large metadata first) is read from the whole source.
  if (!header) await headerOf(whole);
  const startedAt = performance.now();
  const image = await o.renderer.render(whole, spec.parsed, { limits, timeoutSeconds: o.timeoutSeconds });
  return { image, startedAt };
}

/** Refuses a file version whose source was refused before under these limits, with the same answer. */
export async function assertNotRefused(
  renditions: RenditionRepository,
  file: { id: string; blobVersion: string },
  limits: RenditionLimits,
): Promise<void> {
  const refusal = await renditions.findRefusal(file.id, file.blobVersion);
  if (refusal && refusal.limits === toLimitsStamp(limits)) throw imageTooLargeAsRecorded(refusal.message);
}

/** The limits a header is checked against, as a refusal records them. */
function toLimitsStamp(limits: RenditionLimits): string {
  return `${limits.maxPixels}px ${limits.maxMemoryBytes}B`;
}

/**
 * Reads a source's header, recording an IMAGE_TOO_LARGE refusal for the file's version: a
 * header never changes, so neither does the answer. (A rendition too large at one size and
 * format, refused by render(), is not recorded: other sizes of the same source render.)
 */
async function refuseForGood(
  o: RenderRenditionOptions,
  file: DownloadableFile,
  readHeader: () => Promise<ImageHeader | undefined>,
): Promise<ImageHeader | undefined> {
  try {
    return await readHeader();
  } catch (error) {
    if (isAppError(error) && error.code === 'IMAGE_TOO_LARGE')
      await o.renditions.insertRefusal({
        fileId: file.id,
        sourceVersion: file.blobVersion,
        code: 'IMAGE_TOO_LARGE',
        message: error.message,
        limits: toLimitsStamp(o.limits),
        createdAt: o.clock.now(),
      });
    throw error;
  }
}

/**
 * Records a render, out of its slot (the disk's wait is no core's work): the bytes are stored
 * before the row that makes them servable.
 */
export async function storeRendition(
  o: RenderRenditionOptions,
  file: DownloadableFile,
  spec: { canonical: string },
  rendered: Rendition | RenderedRendition,
): Promise<Rendition> {
  if (!('image' in rendered)) return rendered;
  const { image, startedAt } = rendered;
  const blobKey = toRenditionBlobKey(file, spec.canonical);
  const stored = await o.blobs.put(blobKey, Readable.from([image.bytes]), {
    contentType: image.contentType,
    maxBytes: image.bytes.length,
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
  return recorded;
}
