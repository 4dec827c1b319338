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
   * The SHA-256 of the whole content when the caller hashed every byte on its way in: what
   * stores that tag versions with it (disk: content-etag.ts) use, instead of reading the bytes
   * back to compute it.
   */
  sha256?: Buffer;
  contentType: string;
};

/** How an append is told to stop, and tells what it made durable as it goes. */
export type AppendOptions = {
  signal?: AbortSignal;
  /**
   * Told, while the body still streams, each offset up to which the bytes became durable (the
   * store's flush boundaries: each MiB on disk, each part on S3), so the upload's row can move
   * before the body ends and a crash keeps what reached the store (issue 35). Called in order,
   * never awaited: what it does with the offset is the caller's.
   */
  onDurable?: (offset: number) => void;
};

/** A part of an upload as the store holds it (S3 ListParts): its number, size and quoted ETag. */
export type StoredPart = { partNumber: number; sizeBytes: number; etag: string };

/** Where a client PUTs one part's bytes straight into the store (a presigned URL). */
export type PresignedPart = { partNumber: number; url: string };

/**
 * One raw request on an upload a client sends to the store itself (Uppy's `@uppy/aws-s3`
 * signs each S3 request it makes): a part's PUT, the parts' listing, the upload's abort.
 */
export type DirectRequest =
  | { operation: 'UploadPart'; partNumber: number }
  | { operation: 'ListParts' }
  | { operation: 'AbortMultipartUpload' };

/** A presigned DirectRequest, with the upload it names and how many parts its layout has. */
export type PresignedRequest = { url: string; uploadId: string; partCount: number };

/** An upload's parts, as a store that takes them straight from clients names them. */
export type DirectParts<Part> = {
  /** The store's own name for the upload (S3's UploadId), as every part's URL carries it. */
  uploadId: string;
  /** The size of every part but the last, which holds the rest: part n is [(n-1)·size, n·size). */
  partSizeBytes: number;
  parts: Part[];
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
    options?: AppendOptions,
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
  /**
   * Stores a client can send the parts to directly (S3 multipart; issue 20's parallel uploads):
   * a URL for each part 1…N of the upload's layout, bound to that part and its exact length,
   * valid for `expiresInSeconds`. The bytes that arrive there count only once complete() runs.
   */
  presignParts?(
    blob: PartialBlob,
    options: { expiresInSeconds: number },
  ): Promise<DirectParts<PresignedPart>>;
  /**
   * One request on the upload, presigned for `expiresInSeconds` (a part's URL bound to that
   * part and its exact length, as presignParts makes it).
   */
  presignRequest?(
    blob: PartialBlob,
    request: DirectRequest,
    options: { expiresInSeconds: number },
  ): Promise<PresignedRequest>;
  /** The parts the store holds, by number; undefined once the upload is gone (completed or aborted). */
  listParts?(blob: PartialBlob): Promise<DirectParts<StoredPart> | undefined>;
}
