import type { Kysely } from 'kysely';
import type { NewEvent } from '../../domain/events/event.ts';
import type { CustomData } from '../../domain/files/custom-data.ts';
import type {
  AclEntry,
  FileHold,
  FileRecord,
  NewFile,
  PendingUpload,
} from '../../domain/files/file-record.ts';
import type {
  BlobReferences,
  BrowsePage,
  FileListQuery,
  FileRepository,
  ReplacedUpload,
  SweptUpload,
} from '../../domain/files/file-repository.ts';
import type { FileSearchPage, FileSearchQuery } from '../../domain/files/file-search.ts';
import type { QuotaLimits } from '../../domain/files/storage-usage-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { insertEvents } from './events/insert-events.ts';
import { browseFiles } from './files/browse-files.ts';
import { commitUpload, recordUpload } from './files/commit-upload.ts';
import { createCopy, type NewCopy } from './files/create-copy.ts';
import { createFile } from './files/create-file.ts';
import { deleteExpiredUnverified } from './files/delete-expired-unverified.ts';
import { addAclEntry, removeAclEntry } from './files/file-acl-entries.ts';
import {
  findBlobReferences,
  findSharedBlobVersions,
  isBlobReferenced,
} from './files/file-blob-references.ts';
import { type FileInserts, prepareFileInserts } from './files/file-inserts.ts';
import { FileViewCache } from './files/file-view-cache.ts';
import { findFilesByIds } from './files/find-files-by-ids.ts';
import { listIdsCreatedBy, listIdsSharedWithUser } from './files/list-file-ids.ts';
import { listFiles } from './files/list-files.ts';
import { markVerified, type Verification } from './files/mark-verified.ts';
import { moveFile } from './files/move-file.ts';
import { searchFiles } from './files/search-files.ts';
import { setHold } from './files/set-hold.ts';
import { updateCustomData } from './files/update-custom-data.ts';
import { groupCommitFor, type TransactionRunner } from './group-commit.ts';
import { writeTransaction } from './write-transaction.ts';

/** FileRepository over Kysely (SQLite or PostgreSQL): each operation lives in its module under files/. */
export class KyselyFileRepository implements FileRepository {
  readonly #db: Kysely<DatabaseSchema>;
  /** The hot path (every file call, every download): kept per file, checked by its row stamp. */
  readonly #views: FileViewCache;
  readonly #inserts: FileInserts;
  /** Upload requests' transactions: grouped into one commit on SQLite (group-commit.ts). */
  readonly #createTransactions: TransactionRunner;

  /** `views`: shared with the folder repository's pages (one kept record a file). */
  constructor(db: Kysely<DatabaseSchema>, views = new FileViewCache(db)) {
    this.#db = db;
    this.#views = views;
    this.#inserts = prepareFileInserts(db);
    this.#createTransactions = groupCommitFor(db);
  }

  create(
    file: NewFile,
    now: Date,
    quotas?: QuotaLimits,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload }> {
    return createFile(this.#createTransactions, this.#inserts, file, now, quotas);
  }

  findById(id: string): Promise<FileRecord | undefined> {
    return this.#views.find(id);
  }

  findRecentById(id: string): Promise<FileRecord | undefined> {
    return this.#views.findRecent(id);
  }

  findByIds(ids: readonly string[]): Promise<Map<string, FileRecord>> {
    return findFilesByIds(this.#db, ids);
  }

  async findByPath(
    owner: { projectId: string; creatorId: string },
    filePath: string,
  ): Promise<FileRecord | undefined> {
    // files_project_creator_path_unique: one index probe.
    const row = await this.#db
      .selectFrom('files')
      .select('id')
      .where('project_id', '=', owner.projectId)
      .where('creator_id', '=', owner.creatorId)
      .where('file_path', '=', filePath)
      .executeTakeFirst();
    return row && this.#views.find(row.id);
  }

  browse(page: BrowsePage): Promise<FileRecord[]> {
    return browseFiles(this.#db, page);
  }

  list(query: FileListQuery): Promise<{ files: FileRecord[]; total: number }> {
    return listFiles(this.#db, query);
  }

  search(query: FileSearchQuery): Promise<FileSearchPage> {
    return searchFiles(this.#db, query);
  }

  async delete(id: string, event?: NewEvent): Promise<boolean> {
    // file_acl (and renditions) rows go with it: ON DELETE CASCADE. A held file stays (issue 38):
    // the hold is judged by the delete itself.
    const remove = async (db: Kysely<DatabaseSchema>) =>
      (await db.deleteFrom('files').where('id', '=', id).where('hold_reason', 'is', null).executeTakeFirst())
        .numDeletedRows > 0n;
    if (!event) return remove(this.#db);
    return writeTransaction(this.#db, async (trx) => {
      const deleted = await remove(trx);
      if (deleted) await insertEvents(trx, [event]);
      return deleted;
    });
  }

  async deleteIfNeverUploaded(id: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('files')
      .where('id', '=', id)
      .where('verified', '=', 0)
      .where('upload_blob_version', 'is', null)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  listIdsCreatedBy(
    projectId: string,
    creatorId: string,
    page: { afterId?: string; limit: number },
  ): Promise<string[]> {
    return listIdsCreatedBy(this.#db, projectId, creatorId, page);
  }

  listIdsSharedWithUser(projectId: string, userId: string, limit: number): Promise<string[]> {
    return listIdsSharedWithUser(this.#db, projectId, userId, limit);
  }

  addAclEntry(id: string, entry: AclEntry, now: Date, event?: NewEvent): Promise<FileRecord | undefined> {
    return addAclEntry(this.#db, id, entry, now, event);
  }

  removeAclEntry(id: string, entry: AclEntry, now: Date, event?: NewEvent): Promise<FileRecord | undefined> {
    return removeAclEntry(this.#db, id, entry, now, event);
  }

  deleteExpiredUnverified(
    expiredBefore: number,
    limit: number,
    eventOf?: (swept: SweptUpload) => NewEvent,
  ): Promise<SweptUpload[]> {
    return deleteExpiredUnverified(this.#db, expiredBefore, limit, eventOf);
  }

  createCopy(
    copy: NewCopy,
    now: Date,
    quotas?: QuotaLimits,
    event?: NewEvent,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined> {
    return createCopy(this.#db, this.#inserts, copy, now, quotas, event);
  }

  move(
    id: string,
    filePath: string,
    now: Date,
    event?: NewEvent,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined> {
    return moveFile(this.#db, id, filePath, now, event);
  }

  isBlobReferenced(blobFileId: string, version: string): Promise<boolean> {
    return isBlobReferenced(this.#db, blobFileId, version);
  }

  findSharedBlobVersions(blobFileIds: readonly string[]): Promise<Map<string, Set<string>>> {
    return findSharedBlobVersions(this.#db, blobFileIds);
  }

  async revokeLinks(id: string, event?: NewEvent): Promise<boolean> {
    // The row's new generation is what every later download compares with. Not a change of
    // the record the API shows, so version and updatedAt stay.
    return writeTransaction(this.#db, async (trx) => {
      const updated = await trx
        .updateTable('files')
        .set((eb) => ({ links_generation: eb('links_generation', '+', 1) }))
        .where('id', '=', id)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await insertEvents(trx, [event]);
      return true;
    });
  }

  commitUpload(
    id: string,
    upload: PendingUpload,
    quotas?: QuotaLimits,
    event?: NewEvent,
  ): Promise<{ replaced: string | null } | 'verified' | 'missing'> {
    return commitUpload((work) => writeTransaction(this.#db, work), id, upload, quotas, event);
  }

  recordUpload(
    id: string,
    expected: string | null,
    upload: PendingUpload,
    event?: NewEvent,
    quotas?: QuotaLimits,
  ): Promise<boolean> {
    return recordUpload((work) => writeTransaction(this.#db, work), id, expected, upload, event, quotas);
  }

  markVerified(
    id: string,
    verification: Verification,
    now: Date,
    quotas?: QuotaLimits,
  ): Promise<FileRecord | undefined> {
    return markVerified((work) => writeTransaction(this.#db, work), id, verification, now, quotas);
  }

  updateCustomData(
    id: string,
    customData: CustomData,
    now: Date,
    event?: NewEvent,
  ): Promise<FileRecord | undefined> {
    return updateCustomData(this.#db, id, customData, now, event);
  }

  setHold(id: string, hold: FileHold | null, now: Date, event?: NewEvent): Promise<FileRecord | undefined> {
    return setHold(this.#db, id, hold, now, event);
  }

  async saveContentCrc32(fileId: string, blobVersion: string, crc: number): Promise<boolean> {
    // A copy names its source's blob version too: the version and the bytes are the same.
    const updated = await this.#db
      .updateTable('files')
      .set({ content_crc32: crc })
      .where('id', '=', fileId)
      .where('verified', '=', 1)
      .where('blob_version', '=', blobVersion)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  findBlobReferences(ids: readonly string[]): Promise<Map<string, BlobReferences>> {
    return findBlobReferences(this.#db, ids);
  }
}
