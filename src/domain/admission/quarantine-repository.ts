import type { NewEvent } from '../events/event.ts';
import type { FileQuarantineState, FileRecord } from '../files/file-record.ts';

/** One stored, verified version of a file: what a re-scan reads (`coffer scan`). */
export type StoredVersion = {
  fileId: string;
  projectId: string;
  /** The file's id for its first version. */
  versionId: string;
  /** The storage key's file id (`<project>/<blobFileId>`): a copy's source's. */
  blobFileId: string;
  blobVersion: string;
  sizeBytes: number;
  createdAt: Date;
  /** Whether the file serves this version now (else it is one of its earlier versions). */
  current: boolean;
};

/** Where a listing of stored versions goes on from: the last one's creation and version id. */
export type StoredVersionCursor = { createdAt: Date; versionId: string };

/** Quarantined files (issue 42, item 2): the state, its listing, and what a re-scan reads. */
export interface QuarantineRepository {
  /**
   * Quarantines a file, moving its links generation on (every link issued before stops) and
   * writing `event` in the same transaction; undefined when there is no such file or it is
   * quarantined already (a second hit changes nothing and writes no event).
   */
  quarantine(fileId: string, state: FileQuarantineState, event: NewEvent): Promise<FileRecord | undefined>;
  /** Lifts a file's quarantine with `event`; false when it was not quarantined (or is gone). */
  release(fileId: string, now: Date, event: NewEvent): Promise<boolean>;
  /** A project's quarantined files, the latest quarantined first. */
  listQuarantined(projectId: string, page: { limit: number; offset: number }): Promise<FileRecord[]>;
  /**
   * A page of the project's stored verified versions (current ones and earlier ones) created at
   * or after `since`, oldest first, after `after`: a re-scan goes through them in this order.
   */
  listStoredVersions(query: {
    projectId: string;
    since: Date;
    after?: StoredVersionCursor;
    limit: number;
  }): Promise<StoredVersion[]>;
}
