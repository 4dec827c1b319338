import type { ImageMeta } from '../files/file-record.ts';

/** A verified image waiting for its summary, with what reading its bytes needs. */
export type DueImage = {
  id: string;
  projectId: string;
  /** A copy reads its source's bytes (FileRecord.blobFileId). */
  blobFileId: string | null;
  blobVersion: string;
  sizeBytes: number;
  contentType: string;
};

/** The queue of verified images to summarize (dimensions, placeholder), kept in the files table. */
export interface ImageSummaryRepository {
  /** Up to `limit` images waiting, oldest first by id order (any order is fine: all get done). */
  listDue(limit: number): Promise<DueImage[]>;
  /**
   * Records the summary (null: none could be made) of the file's version and takes it off the
   * queue; a file deleted meanwhile is left alone.
   */
  saveSummary(fileId: string, blobVersion: string, image: ImageMeta | null): Promise<void>;
}
