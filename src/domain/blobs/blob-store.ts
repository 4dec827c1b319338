import type { Readable } from 'node:stream';

/** What a store knows of one stored version. */
export type BlobInfo = {
  sizeBytes: number;
  lastModified: Date;
};

/** What put() stored: a new immutable version of the key. */
export type StoredBlob = BlobInfo & {
  version: string;
  /**
   * Quoted entity tag, opaque to clients: S3's own (the MD5 of a single-part object); on the
   * local stores the first 128 bits of the bytes' SHA-256 (content-etag.ts).
   */
  etag: string;
};

export type PutBlobOptions = {
  contentType: string;
  /** The store fails with FILE_TOO_LARGE as soon as more bytes arrive, and keeps nothing. */
  maxBytes: number;
  signal?: AbortSignal;
  /**
   * The body's exact length when its sender said it beforehand (a PUT's Content-Length, an
   * upload request's declared contentLength). A store may announce it to its backend ahead of
   * the bytes (S3: one streamed PutObject instead of a multipart upload); one that does fails
   * the put, keeping nothing, when the body has another length.
   */
  sizeBytes?: number;
  /**
   * The SHA-256 of exactly the body's bytes, from a caller that computes it anyway (an
   * upload's ContentCheckStream), asked for only once the body has ended: stores that tag
   * versions with it (content-etag.ts) then hash nothing themselves. Stores that keep their
   * own ETag (S3) never ask.
   */
  sha256?: () => Buffer;
};

export type PresignDownloadOptions = {
  expiresInSeconds: number;
  /** Sent back as Content-Disposition so the browser saves it under this name. */
  fileName: string;
  contentType: string;
};

/** What a direct upload must carry, signed so that the store itself refuses anything else. */
export type PresignUploadOptions = {
  expiresInSeconds: number;
  contentType: string;
  /** Declared at the upload request: signed as Content-Length. */
  contentLength?: number;
  /** Declared at the upload request (base64): signed as x-amz-checksum-sha256. */
  checksumSha256?: string;
};

export type ByteRange = { start: number; end: number };

/** Where a DirectBody writes: an HTTP response, as far as the body needs to know it. */
export type DirectDestination = {
  readonly destroyed: boolean;
  write(chunk: Buffer, callback: (error?: Error | null) => void): boolean;
  end(): void;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
};

/**
 * A body that can also write itself into a response, reusing its buffers once the socket has
 * sent them (file-range-body.ts). Any other consumer reads it as the Readable it is.
 */
export type DirectBody = Readable & {
  /** Writes the whole body and ends the destination. */
  writeTo(destination: DirectDestination): Promise<void>;
  /** Writes the whole body as one part of the destination's (an archive's entry), leaving it open. */
  writeInto?(destination: DirectDestination): Promise<void>;
};

export function isDirectBody(body: unknown): body is DirectBody {
  return typeof (body as Partial<DirectBody> | undefined)?.writeTo === 'function';
}

/** What a direct upload's adoption stored, with the checksum the store keeps of it if any. */
export type AdoptedBlob = StoredBlob & {
  /**
   * The base64 SHA-256 of the whole object as the store reports it (S3's full-object
   * `ChecksumSHA256`); undefined when the store keeps none, as stores that never check one do.
   */
  checksumSha256?: string;
};

/**
 * Where file bytes live. Keys come from server ids (`<projectId>/<fileId>`), never user input.
 * Every put() writes a new immutable version of its key: bytes once stored under a version
 * never change, and which version counts is decided by the file record, not by the store.
 */
export interface BlobStore {
  /** Streams the body into a new version, published whole or not at all. */
  put(key: string, body: Readable, options: PutBlobOptions): Promise<StoredBlob>;
  head(key: string, version: string): Promise<BlobInfo | undefined>;
  /**
   * Opens the version (or an inclusive byte range of it); undefined when it does not exist.
   * The body is a Buffer when the store already holds those bytes in memory (small versions).
   */
  get(
    key: string,
    version: string,
    options?: { range?: ByteRange; signal?: AbortSignal },
  ): Promise<{ info: BlobInfo; body: Readable | Buffer } | undefined>;
  /** Deleting a missing version is not an error. */
  delete(key: string, version: string): Promise<void>;
  /**
   * Stores on this machine's disk: the file that holds the version (undefined when it does not
   * exist), for a reader that reads files itself. The image renderer hands it to libvips, so a
   * render's source never becomes a buffer in this process (each one cost the garbage
   * collector more than the JPEG decode's own CPU; docs/benchmarks.md).
   */
  localPath?(key: string, version: string): Promise<string | undefined>;
  /**
   * Stores that serve bytes themselves (S3) hand out their own signed GET URL, so download
   * bytes never pass through Coffer; stores without it are served by the /blob/v1 gateway.
   */
  presignDownload?(key: string, version: string, options: PresignDownloadOptions): Promise<string>;
  /**
   * Direct-upload mode: a signed PUT URL to the store itself, binding the content type. Its
   * object is a staging area the client may overwrite until verify adopts it.
   */
  presignUpload?(key: string, options: PresignUploadOptions): Promise<string>;
  /**
   * Direct-upload mode, at verify: copies the staging object into a new immutable version
   * if (and only if) its entity tag is still `etag`, then removes the staging object.
   * Undefined when there is no staging object; ETAG_MISMATCH when it holds other bytes.
   */
  adoptDirectUpload?(key: string, etag: string): Promise<AdoptedBlob | undefined>;
  /**
   * Readiness: throws UNAVAILABLE when the store cannot be reached and STORAGE_FULL when it
   * cannot take writes (a small write probe that leaves nothing behind).
   */
  check(): Promise<void>;
}
