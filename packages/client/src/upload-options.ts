import type { ResumableSendOptions } from './resumable-upload.ts';
import type { ResumeStore } from './resume-store.ts';
import type { UploadProgress } from './upload-body.ts';

const MiB = 1024 * 1024;
export const defaultResumableThresholdBytes = 8 * MiB;
// A multiple of 5 MiB, an S3 store's part size: each PATCH then fills whole parts, and no part
// has to be parked and read back (S3PartialStore).
const defaultChunkSizeBytes = 10 * MiB;
const defaultRetries = 3;

/** How a body's bytes go up: one PUT, or (above the threshold) tus 1.0 PATCHes that resume. */
export type TransferOptions = {
  /** Told as bytes go; never goes back. A resumed upload's first event is where it resumed. */
  onProgress?: (progress: UploadProgress) => void;
  /**
   * How many times a failure is tried again, with backoff (network errors, 5xx; resumable
   * uploads also 423, and count only failures in a row, with no byte gained). Default 3.
   */
  retries?: number;
  /** The bytes of a resumable upload per PATCH. Default 8 MiB. */
  chunkSizeBytes?: number;
  /** Told once, before any progress, when an upload goes on from bytes the server already held. */
  onResume?: (offsetBytes: number) => void;
  signal?: AbortSignal;
};

export type UploadOptions = TransferOptions & {
  permissionScope?: 'user' | '*';
  /** The content's type; a Blob's own type, else `application/octet-stream`. */
  contentType?: string;
  /** Bodies larger than this go up resumably (tus 1.0), the rest in one PUT. Default 8 MiB. */
  resumableThresholdBytes?: number;
  /**
   * Where a resumable upload keeps its state ({fileId, resumableUrl}), so that upload() of
   * the same body goes on where it stopped, after a reload or a restart too. Default: the
   * client's `resumeStore`, else files in `~/.coffer/resumable-uploads/` in Node,
   * `localStorage` in browsers, else memory.
   */
  resumeStore?: ResumeStore;
  /**
   * What tells this body from others across runs (a local file's path, size and mtime). By
   * default its size, a File's name and lastModified, and a digest of its first and last 64 KiB.
   */
  fingerprint?: string;
};

/** The transfer options with their defaults, for a resumable upload. */
export function toSendOptions(
  options: TransferOptions,
  fetch: typeof globalThis.fetch,
): ResumableSendOptions {
  return {
    chunkSizeBytes: options.chunkSizeBytes ?? defaultChunkSizeBytes,
    retries: options.retries ?? defaultRetries,
    onProgress: options.onProgress,
    onResume: options.onResume,
    signal: options.signal,
    fetch,
  };
}
