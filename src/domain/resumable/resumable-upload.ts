import { toStorageKey } from '../files/storage-key.ts';
import type { PartialBlob } from './partial-blob-store.ts';

/**
 * A resumable upload (issue 20, tus 1.0): the bytes of one file record's upload arriving over
 * as many requests as the client needs. Its row is the commit point: `offset` counts only bytes
 * the store has made durable, and `state` turns `committed` in the same step as the file
 * record takes the bytes as its upload.
 */
export type ResumableUpload = {
  /** Random, 128 bits (newId): with the link's signature, the only way to name the upload. */
  id: string;
  projectId: string;
  fileId: string;
  /** Who asked for the upload: it stops when their account is disabled or removed. */
  creatorId: string;
  /** The blob version the bytes are published as. */
  blobVersion: string;
  /** tus Upload-Length: the upload request's declared contentLength. */
  length: number;
  offset: number;
  /** What the partial blob store keeps between requests (an S3 multipart upload id). */
  storeState: string | null;
  /**
   * The running SHA-256's saved state after the first `offset` bytes (running-digests.ts), saved
   * with the offset: a commit in any process then hashes only what came after. Null when none
   * was kept (a chunk cut off between two checkpoints): the commit reads the bytes back.
   */
  sha256State: Uint8Array | null;
  /**
   * The running CRC-32 (issue 40) after the first `offset` bytes, saved with sha256State; null
   * when none was kept (nor then the SHA-256's, or a row from before migration 0036).
   */
  crc32State: number | null;
  state: 'receiving' | 'committed';
  /** The ETag the commit answered (a PUT's), kept so a repeated final PATCH answers it again. */
  etag: string | null;
  /** When the upload stops being resumable: some time after its last accepted byte. */
  expiresAt: Date;
  createdAt: Date;
};

export type NewResumableUpload = Omit<
  ResumableUpload,
  'offset' | 'state' | 'etag' | 'sha256State' | 'crc32State'
>;

/** Where the upload's bytes wait, as the partial blob store names them. */
export function toPartialBlob(upload: ResumableUpload): PartialBlob {
  return {
    key: toStorageKey({ projectId: upload.projectId, id: upload.fileId }),
    version: upload.blobVersion,
    length: upload.length,
    storeState: upload.storeState,
  };
}
