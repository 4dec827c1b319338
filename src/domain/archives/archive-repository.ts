import type { PlacedZipEntry } from '../../archives/zip-layout.ts';

/** An archive as the gateway serves it: its layout fixed at creation. */
export type ArchiveRecord = {
  id: string;
  projectId: string;
  creatorId: string;
  createdAt: Date;
  expiresAt: Date;
  fileCount: number;
  totalBytes: number;
  archiveBytes: number;
  centralOffset: number;
  centralSize: number;
  /** Quoted. */
  etag: string;
  fileName: string;
};

/** One file at its place in the archive, and what the file was when the archive was made. */
export type ArchiveEntry = PlacedZipEntry & {
  fileId: string;
  blobVersion: string;
  linksGeneration: number;
  storageKey: string;
};

/** Archives and their entries (persistence/repositories/kysely-archive-repository.ts). */
export interface ArchiveRepository {
  /** Stores the archive and every entry in one transaction; removes a few expired archives first. */
  create(archive: ArchiveRecord, entries: readonly ArchiveEntry[], now: Date): Promise<void>;
  findById(id: string): Promise<ArchiveRecord | undefined>;
  /**
   * How many entries no longer match their file: gone (deleted, trashed), unverified, another
   * blob version, another links generation. One query, bounded by the archive's size.
   */
  countStaleEntries(archiveId: string): Promise<number>;
  /** The position of the entry whose local header, data or descriptor holds `offset`. */
  positionAtOffset(archiveId: string, offset: number): Promise<number>;
  /** The position of the entry whose central header holds `centralOffset` (from the directory's start). */
  positionAtCentralOffset(archiveId: string, centralOffset: number): Promise<number>;
  /** A page of entries in order, from `position` on. */
  entriesFrom(archiveId: string, position: number, limit: number): Promise<ArchiveEntry[]>;
  /** Keeps a CRC learnt from the bytes. */
  saveEntryCrc(archiveId: string, position: number, crc32: number): Promise<void>;
}
