// The tables of renditions (issues 8 and 39), as Kysely sees them; part of DatabaseSchema.

/** Sources that cannot be rendered (migrations/rendition-refusals.ts; domain/renditions/rendition-repository.ts). */
export type RenditionRefusalsTable = {
  file_id: string;
  /** The file's blob version that was refused. */
  source_version: string;
  /** The error code answered (IMAGE_TOO_LARGE, or MEDIA_UNREADABLE for phone media: issue 39). */
  code: string;
  /** The error message answered, word for word. */
  message: string;
  /** The limits it was decided under (domain/renditions/render-rendition.ts, toLimitsStamp). */
  limits: string;
  created_at: number;
};

/** Rendered images (migrations/renditions.ts; domain/renditions/rendition-repository.ts). */
export type RenditionsTable = {
  file_id: string;
  /** The file's blob version the rendition was made from. */
  source_version: string;
  /** Canonical spec (domain/renditions/rendition-spec.ts). */
  spec: string;
  blob_key: string;
  blob_version: string;
  size_bytes: number;
  content_type: string;
  etag: string;
  width: number;
  height: number;
  created_at: number;
};
