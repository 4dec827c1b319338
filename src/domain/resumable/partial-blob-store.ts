import type { Readable } from 'node:stream';
import type { StoredBlob } from '../blobs/blob-store.ts';

/**
 * A resumable upload's bytes as a store holds them until the last one arrives: they become
 * version `version` of `key` (a new immutable version, as BlobStore.put writes) only at
 * complete(), so nothing of an unfinished upload is ever readable as a file.
 */
export type PartialBlob = {
  /** `<projectId>/<fileId>`, as BlobStore keys. */
  key: string;
  /** The version the bytes are published as (chosen at begin, a BlobStore version name). */
  version: string;
  /** The upload's whole length (tus Upload-Length). */
  length: number;
  /** What the store keeps of its own between requests (an S3 multipart upload id); null on disk. */
  storeState: string | null;
};

/** What complete() is told of the whole content; a store that keeps its own ETag ignores it. */
export type CompleteOptions = {
  /**
   * The hex MD5 of the whole content when the caller hashed every byte on its way in: the ETag
   * of stores that tag bytes with their MD5 (disk), which otherwise read the bytes to compute it.
   */
  md5Hex?: string;
  contentType: string;
};

/**
 * Where resumable uploads' bytes wait (DESIGN.md §1: temp files in the data dir, S3 multipart
 * uploads). The offset that counts is the one the upload's row holds (the commit point):
 * bytes a store took past it (a PATCH cut off before its row moved, a chunk whose checksum
 * failed) are overwritten by the next append at that offset, never read.
 */
export interface PartialBlobStore {
  /** Prepares an upload of `length` bytes; answers the state to keep with the upload (or null). */
  begin(blob: Omit<PartialBlob, 'storeState'>, contentType: string): Promise<string | null>;
  /**
   * Writes `body` at `offset` (the row's offset) and answers the offset up to which the bytes
   * are durable (synced, or acknowledged by the store). When the body fails midway (the client
   * went away), what arrived is kept as far as it can be made durable and the answer carries
   * the failure too; `offset` is then where that kept part ends. The body never goes past
   * `blob.length` (the caller cuts it off).
   */
  append(
    blob: PartialBlob,
    offset: number,
    body: Readable,
    options?: { signal?: AbortSignal },
  ): Promise<{ offset: number; failure?: unknown }>;
  /**
   * Publishes the whole content as `blob.version` of `blob.key`. Idempotent: called again
   * after it succeeded (a crash or failure before the record moved), it answers the same.
   */
  complete(blob: PartialBlob, options: CompleteOptions): Promise<StoredBlob>;
  /** Removes an unfinished upload's bytes; an upload already gone is not an error. */
  abort(blob: PartialBlob): Promise<void>;
  /** After a commit: removes what the store kept beside the published version (parked tails). */
  cleanUp(blob: PartialBlob): Promise<void>;
}
