// The tables of archives (issue 40), as Kysely sees them; part of DatabaseSchema.

/** One ZIP of many files, its layout fixed at creation (migrations/archives.ts). */
export type ArchivesTable = {
  id: string;
  project_id: string;
  creator_id: string;
  created_at: number | string;
  /** Unix ms: the link's expiry; the row goes some time after (a few at each creation). */
  expires_at: number | string;
  file_count: number;
  /** The files' bytes together; archive_bytes: the whole ZIP's length. */
  total_bytes: number | string;
  archive_bytes: number | string;
  /** Where the central directory starts, and its length. */
  central_offset: number | string;
  central_size: number | string;
  /** Quoted: a hash of the layout (every file version, name and offset). */
  etag: string;
  /** The download's name (`<folder>.zip` or `files.zip`). */
  file_name: string;
};

/** One file of an archive, at its place in the ZIP. */
export type ArchiveEntriesTable = {
  archive_id: string;
  position: number;
  file_id: string;
  /** What the file was at creation: the download answers 410 once any of these changed. */
  blob_version: string;
  links_generation: number;
  storage_key: string;
  name: string;
  size: number | string;
  /** null until the bytes were read once (then kept here and on the file). */
  crc32: number | string | null;
  /** 1: the CRC was unknown at creation, so the entry has a data descriptor (ZIP flag bit 3). */
  has_descriptor: number;
  modified_at: number | string;
  local_header_offset: number | string;
  /** From the central directory's start. */
  central_offset: number | string;
};

export type ArchiveTables = { archives: ArchivesTable; archive_entries: ArchiveEntriesTable };
