import { isAppError } from '../../errors/app-error.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { ImageMeta } from '../files/file-record.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { ImageRenderer } from './image-renderer.ts';
import type { DueImage, ImageSummaryRepository } from './image-summary-repository.ts';
import { readImageHead, readWholeImage } from './read-image-bytes.ts';
import type { MediaOptions } from './render-media.ts';
import type { RenderQueue } from './render-queue.ts';
import { isMediaType, isRenderableType, type RenditionLimits } from './renderable-source.ts';
import { summarizeMedia } from './summarize-media.ts';

export type ImageSummarizerOptions = MediaOptions & {
  summaries: ImageSummaryRepository;
  blobs: BlobStore;
  renderer: ImageRenderer;
  /** Summaries take render slots like renditions: one bound on the work images cost. */
  queue: RenderQueue;
  limits: RenditionLimits;
  timeoutSeconds: number;
  /** A video's placeholder follows its project's videoRenditions and maxVideoSeconds (issue 39). */
  settingsOf: (projectId: string) => Promise<Pick<ProjectSettings, 'videoRenditions' | 'maxVideoSeconds'>>;
  onError?: (error: unknown, fileId: string) => void;
};

/** Failures that pass: the image is left in the queue for the next pass. */
const transientCodes = new Set(['UNAVAILABLE', 'RENDER_BUSY', 'STORAGE_FULL']);

/**
 * Gives verified images their `meta.width`, `meta.height` and `meta.placeholder` (issue 21),
 * off the request path: verify only marks an image as due, and this takes the due ones a batch
 * at a time. A crash loses nothing (the mark stays until the summary is saved); an image that
 * cannot be summarized is saved without one, so it never blocks the queue.
 */
export class ImageSummarizer {
  readonly #o: ImageSummarizerOptions;

  constructor(options: ImageSummarizerOptions) {
    this.#o = options;
  }

  /** Summarizes up to `batchSize` due images, one at a time; answers how many it took. */
  async summarizeDue(batchSize: number, signal?: AbortSignal): Promise<number> {
    const due = await this.#o.summaries.listDue(batchSize);
    let done = 0;
    for (const image of due) {
      signal?.throwIfAborted();
      let meta: ImageMeta | null;
      try {
        meta = await this.#o.queue.run(`summary/${image.id}/${image.blobVersion}`, () =>
          this.#summarize(image),
        );
      } catch (error) {
        if (isAppError(error) && transientCodes.has(error.code)) break;
        // Anything else would fail again: the image goes without a summary, the queue moves on.
        this.#o.onError?.(error, image.id);
        meta = null;
      }
      await this.#o.summaries.saveSummary(image.id, image.blobVersion, meta);
      done += 1;
    }
    return done;
  }

  async #summarize(image: DueImage): Promise<ImageMeta | null> {
    const source = {
      key: toStorageKey({ projectId: image.projectId, id: image.id, blobFileId: image.blobFileId }),
      version: image.blobVersion,
      sizeBytes: image.sizeBytes,
    };
    if (isMediaType(image.contentType)) {
      const limits = { ...this.#o.limits, timeoutSeconds: this.#o.timeoutSeconds };
      const settings = await this.#o.settingsOf(image.projectId);
      return summarizeMedia({ ...this.#o, limits }, source, settings).catch((error: unknown) => {
        if (isAppError(error) && !transientCodes.has(error.code) && error.statusCode < 500) return null;
        throw error;
      });
    }
    if (!isRenderableType(image.contentType)) return null;
    const limits = { maxPixels: this.#o.limits.maxPixels, maxMemoryBytes: this.#o.limits.maxMemoryBytes };
    const head = await readImageHead(this.#o.blobs, source);
    try {
      // The header's dimensions are worth keeping even for an image too large to render.
      const header = await this.#o.renderer.readHeader(head, {
        maxPixels: Number.MAX_SAFE_INTEGER,
        maxMemoryBytes: Number.POSITIVE_INFINITY,
      });
      // A placeholder decodes the source like a render does: the same limits hold.
      const isTooLarge =
        image.sizeBytes > this.#o.limits.maxSourceBytes ||
        (header !== undefined &&
          (header.width * header.height > limits.maxPixels || header.decodeBytes > limits.maxMemoryBytes));
      if (isTooLarge)
        return header ? { width: header.width, height: header.height, placeholder: null } : null;
      const whole = await readWholeImage(this.#o.blobs, source, head);
      return await this.#o.renderer.summarize(whole, { limits, timeoutSeconds: this.#o.timeoutSeconds });
    } catch (error) {
      if (isAppError(error) && !transientCodes.has(error.code) && error.statusCode < 500) return null;
      throw error;
    }
  }
}
