/** An object a store holds: a version of a key, or (direct uploads) a key's staging object. */
export type StoredObject = {
  key: string;
  /** Undefined for a staging object. */
  version?: string;
  sizeBytes: number;
  lastModified: Date;
};

/** A write nobody will finish: a temp file of a dead writer, or an incomplete multipart upload. */
export type UnfinishedWrite =
  | { kind: 'temp-file'; name: string; sizeBytes: number; startedAt: Date }
  | {
      kind: 'multipart-upload';
      objectKey: string;
      uploadId: string;
      startedAt: Date;
      /** The key and version the upload would publish (as StoredObject names them). */
      key: string;
      version?: string;
    };

/**
 * How stray bytes are found and removed (`coffer gc`, and periodically in `serve`). Listings
 * come page by page, so a store of millions of objects is never held in memory at once, and
 * show only what the store itself wrote (keys and names in its own format).
 */
export interface BlobSweeper {
  /** Every version and staging object, a page (at most `pageSize`) at a time, in no set order. */
  listObjects(options: { pageSize: number; signal?: AbortSignal }): AsyncIterable<StoredObject[]>;
  /** Removes a key's staging object; a missing one is not an error. */
  deleteStaging(key: string): Promise<void>;
  /**
   * Writes nobody will finish: temp files whose writer is gone (or untouched for an hour),
   * multipart uploads started before `startedBefore`.
   */
  listUnfinishedWrites(options: {
    startedBefore: Date;
    pageSize: number;
    signal?: AbortSignal;
  }): AsyncIterable<UnfinishedWrite[]>;
  /** Removes a temp file or aborts a multipart upload; one already gone is not an error. */
  removeUnfinishedWrite(write: UnfinishedWrite): Promise<void>;
}
