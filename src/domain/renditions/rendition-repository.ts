/** A rendered image: which file version and spec it renders, and where its bytes are. */
export type Rendition = {
  fileId: string;
  /** The file's blob version it was rendered from. */
  sourceVersion: string;
  /** Canonical spec (rendition-spec.ts). */
  spec: string;
  blobKey: string;
  blobVersion: string;
  sizeBytes: number;
  contentType: string;
  /** Quoted entity tag of the rendered bytes. */
  etag: string;
  width: number;
  height: number;
  createdAt: Date;
};

/**
 * A source version that cannot be rendered, decided once from its header (IMAGE_TOO_LARGE):
 * later requests answer the same error from this record instead of reading the source again.
 */
export type RenditionRefusal = {
  fileId: string;
  sourceVersion: string;
  code: 'IMAGE_TOO_LARGE' | 'MEDIA_UNREADABLE';
  /** The message answered, word for word. */
  message: string;
  /**
   * The limits it was decided under (toLimitsStamp): after an operator changes them, the
   * source is decided again rather than refused for a limit that no longer holds.
   */
  limits: string;
  createdAt: Date;
};

/** The renditions of files (one row per file, source version and spec); rows go with their file. */
export interface RenditionRepository {
  find(fileId: string, sourceVersion: string, spec: string): Promise<Rendition | undefined>;
  /**
   * Records a rendition unless one of the same file, version and spec is there already (a
   * render elsewhere won): answers the one that counts, or undefined when the file is gone.
   */
  insert(rendition: Rendition): Promise<Rendition | undefined>;
  findRefusal(fileId: string, sourceVersion: string): Promise<RenditionRefusal | undefined>;
  /** Records a refusal, replacing one decided under other limits; a file deleted meanwhile is left alone. */
  insertRefusal(refusal: RenditionRefusal): Promise<void>;
  /** Of these blob keys, the versions a rendition row names (the blob collector keeps those). */
  findRenditionBlobVersions(blobKeys: readonly string[]): Promise<Map<string, Set<string>>>;
}
