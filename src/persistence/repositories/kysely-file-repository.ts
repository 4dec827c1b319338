import type { Insertable, Kysely } from 'kysely';
import type { CustomData } from '../../domain/files/custom-data.ts';
import type {
  AclEntry,
  BlobReferences,
  BrowsePage,
  FileContentInfo,
  FileListQuery,
  FileRecord,
  FileRepository,
  NewFile,
  PendingUpload,
  QuotaLimits,
  ReplacedUpload,
  SweptUpload,
} from '../../domain/ports.ts';
import { fileExists } from '../../errors/errors.ts';
import { isUniqueViolation } from '../database-errors.ts';
import type { DatabaseSchema, FilesTable } from '../database-schema.ts';
import { browseFiles } from './browse-files.ts';
import { deleteExpiredUnverified } from './delete-expired-unverified.ts';
import { findSharedBlobVersions, isBlobReferenced } from './file-blob-references.ts';
import { findFileById, selectFileWithAcl, toFileRecord, toFileWithAcl } from './file-rows.ts';
import { listFiles } from './list-files.ts';
import { prepareQuery, prepareRowStatement, prepareStatement, type QueryExecutor } from './prepared-query.ts';
import { assertUsageWithin } from './storage-usage-check.ts';
import { writeTransaction } from './write-transaction.ts';

export class KyselyFileRepository implements FileRepository {
  readonly #db: Kysely<DatabaseSchema>;

  /** The hot path (every file call, every download): compiled once (prepared-query.ts). */
  readonly #selectById: (id: string) => Promise<Parameters<typeof toFileWithAcl>[0]>;
  /** Upload requests' writes, compiled once and run inside create's transaction. */
  readonly #claimPath: (trx: QueryExecutor, row: Insertable<FilesTable>) => Promise<unknown[]>;
  readonly #insertFile: (trx: QueryExecutor, row: Insertable<FilesTable>) => Promise<unknown[]>;
  readonly #insertCreatorAcl: (
    trx: QueryExecutor,
    fileId: string,
    creatorId: string,
    projectId: string,
    fileCreatedAt: number,
  ) => Promise<unknown[]>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
    this.#selectById = prepareQuery(db, (id: string) => selectFileWithAcl(db, id), ['']);
    const insertFile = (row: Insertable<FilesTable>) => db.insertInto('files').values(row);
    this.#claimPath = prepareRowStatement((row: Insertable<FilesTable>) =>
      insertFile(row)
        .onConflict((oc) => oc.columns(['project_id', 'creator_id', 'file_path']).doNothing())
        .returning('id'),
    );
    this.#insertFile = prepareRowStatement(insertFile);
    this.#insertCreatorAcl = prepareStatement(
      (fileId: string, creatorId: string, projectId: string, fileCreatedAt: number) =>
        db.insertInto('file_acl').values({
          file_id: fileId,
          scope: 'user',
          identifier: creatorId,
          position: 0,
          // The listing keys (migration 0006): the file's project and creation time.
          project_id: projectId,
          file_created_at: fileCreatedAt,
        }),
      4,
    );
  }

  async create(
    file: NewFile,
    now: Date,
    quotas?: QuotaLimits,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload }> {
    const row = {
      id: file.id,
      project_id: file.projectId,
      creator_id: file.creatorId,
      file_path: file.filePath,
      permission_scope: file.permissionScope,
      verified: 0,
      etag: null,
      content_size_bytes: null,
      content_type: null,
      content_last_modified: null,
      blob_version: null,
      upload_blob_version: null,
      upload_etag: null,
      upload_size_bytes: null,
      upload_content_type: null,
      upload_last_modified: null,
      upload_expires_at: file.uploadExpiresAt,
      created_at: now.getTime(),
      updated_at: now.getTime(),
      version: 0,
      custom_data: file.customData ? JSON.stringify(file.customData) : null,
      links_generation: 0,
      blob_file_id: null,
      expected_size_bytes: file.declared?.sizeBytes ?? null,
      expected_content_type: file.declared?.contentType ?? null,
      expected_sha256: file.declared?.checksumSha256 ?? null,
      upload_sha256: null,
      content_sha256: null,
    };
    try {
      // The common case is a free path: the insert claims it (ON CONFLICT DO NOTHING) and the
      // abandoned-upload check runs only when something is already there. Both statements are
      // compiled once: building them was ~14% of an upload request's CPU.
      const replaced = await writeTransaction(this.#db, async (trx) => {
        let replaced: ReplacedUpload | undefined;
        if ((await this.#claimPath(trx, row)).length === 0) {
          replaced = await deleteAbandonedUpload(trx, file, now);
          await this.#insertFile(trx, row);
        }
        await this.#insertCreatorAcl(trx, file.id, file.creatorId, row.project_id, row.created_at);
        if (quotas) {
          const grew = { files: replaced === undefined, bytes: (row.expected_size_bytes ?? 0) > 0 };
          await assertUsageWithin(trx, { projectId: file.projectId, userId: file.creatorId }, quotas, grew);
        }
        return replaced;
      });
      const created = toFileRecord(row, [{ scope: 'user', identifier: file.creatorId }]);
      return replaced === undefined ? { file: created } : { file: created, replaced };
    } catch (error) {
      // A live record at this path, or a concurrent create that committed first.
      if (isUniqueViolation(error)) throw fileExists();
      throw error;
    }
  }

  async findById(id: string): Promise<FileRecord | undefined> {
    return toFileWithAcl(await this.#selectById(id));
  }

  browse(page: BrowsePage): Promise<FileRecord[]> {
    return browseFiles(this.#db, page);
  }

  list(query: FileListQuery): Promise<{ files: FileRecord[]; total: number }> {
    return listFiles(this.#db, query);
  }

  async delete(id: string): Promise<boolean> {
    // file_acl rows go with it: ON DELETE CASCADE.
    const result = await this.#db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async listIdsCreatedBy(
    projectId: string,
    creatorId: string,
    page: { afterId?: string; limit: number },
  ): Promise<string[]> {
    // files_project_creator_idx (project_id, creator_id, id): an index range.
    let query = this.#db
      .selectFrom('files')
      .select('id')
      .where('project_id', '=', projectId)
      .where('creator_id', '=', creatorId);
    if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
    const rows = await query.orderBy('id').limit(page.limit).execute();
    return rows.map((row) => row.id);
  }

  async listIdsSharedWithUser(projectId: string, userId: string, limit: number): Promise<string[]> {
    // file_acl_listing_idx (project_id, scope, identifier, …): an index range.
    const rows = await this.#db
      .selectFrom('file_acl')
      .select('file_id')
      .where('project_id', '=', projectId)
      .where('scope', '=', 'user')
      .where('identifier', '=', userId)
      .limit(limit)
      .execute();
    return rows.map((row) => row.file_id);
  }

  addAclEntry(id: string, entry: AclEntry, now: Date): Promise<FileRecord | undefined> {
    return this.#changeAcl(id, now, async (trx, version) => {
      // The entry copies its file's listing keys (project, creation time) in the same statement.
      const inserted = await trx
        .insertInto('file_acl')
        .columns(['file_id', 'scope', 'identifier', 'position', 'project_id', 'file_created_at'])
        .expression((eb) =>
          eb
            .selectFrom('files')
            .select((files) => [
              'files.id',
              files.val(entry.scope).as('scope'),
              files.val(entry.identifier).as('identifier'),
              files.val(version).as('position'),
              'files.project_id',
              'files.created_at',
            ])
            .where('files.id', '=', id),
        )
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
    });
  }

  removeAclEntry(id: string, entry: AclEntry, now: Date): Promise<FileRecord | undefined> {
    return this.#changeAcl(id, now, async (trx) => {
      const deleted = await trx
        .deleteFrom('file_acl')
        .where('file_id', '=', id)
        .where('scope', '=', entry.scope)
        .where('identifier', '=', entry.identifier)
        .executeTakeFirst();
      if (deleted.numDeletedRows === 0n) return false;
      // In the same transaction: the links the entry let its users obtain stop as it goes.
      await trx
        .updateTable('files')
        .set((eb) => ({ links_generation: eb('links_generation', '+', 1) }))
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  deleteExpiredUnverified(expiredBefore: number, limit: number): Promise<SweptUpload[]> {
    return deleteExpiredUnverified(this.#db, expiredBefore, limit);
  }

  async createCopy(
    copy: Pick<NewFile, 'id' | 'projectId' | 'creatorId' | 'filePath' | 'permissionScope'> & {
      sourceId: string;
    },
    now: Date,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined> {
    try {
      return await writeTransaction(this.#db, async (trx) => {
        // A no-op update locks the source row until commit: a delete of the source either
        // waits for this copy (and then sees it as a reference to the bytes) or wins (and this
        // finds nothing). SQLite's write lock does the same for the whole database.
        const source = await trx
          .updateTable('files')
          .set((eb) => ({ version: eb.ref('version') }))
          .where('id', '=', copy.sourceId)
          .where('verified', '=', 1)
          .returningAll()
          .executeTakeFirst();
        if (source === undefined || source.project_id !== copy.projectId) return undefined;
        const replaced = await deleteAbandonedUpload(trx, copy, now);
        const row = {
          ...source,
          id: copy.id,
          creator_id: copy.creatorId,
          file_path: copy.filePath,
          permission_scope: copy.permissionScope,
          blob_file_id: source.blob_file_id ?? source.id,
          links_generation: 0,
          created_at: now.getTime(),
          updated_at: now.getTime(),
          version: 0,
        };
        await this.#insertFile(trx, row);
        await this.#insertCreatorAcl(trx, copy.id, copy.creatorId, copy.projectId, row.created_at);
        const file = toFileRecord(row, [{ scope: 'user', identifier: copy.creatorId }]);
        return replaced === undefined ? { file } : { file, replaced };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fileExists();
      throw error;
    }
  }

  async move(
    id: string,
    filePath: string,
    now: Date,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined> {
    try {
      return await writeTransaction(this.#db, async (trx) => {
        const current = await trx
          .updateTable('files')
          .set((eb) => ({ version: eb.ref('version') }))
          .where('id', '=', id)
          .returning(['project_id', 'creator_id', 'file_path'])
          .executeTakeFirst();
        if (current === undefined) return undefined;
        if (current.file_path === filePath) return { file: (await findFileById(trx, id))! };
        const target = { projectId: current.project_id, creatorId: current.creator_id, filePath };
        const replaced = await deleteAbandonedUpload(trx, target, now);
        await trx
          .updateTable('files')
          .set((eb) => ({ file_path: filePath, version: eb('version', '+', 1), updated_at: now.getTime() }))
          .where('id', '=', id)
          .execute();
        const file = (await findFileById(trx, id))!;
        return replaced === undefined ? { file } : { file, replaced };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fileExists();
      throw error;
    }
  }

  isBlobReferenced(blobFileId: string, version: string): Promise<boolean> {
    return isBlobReferenced(this.#db, blobFileId, version);
  }

  findSharedBlobVersions(blobFileIds: readonly string[]): Promise<Map<string, Set<string>>> {
    return findSharedBlobVersions(this.#db, blobFileIds);
  }

  async revokeLinks(id: string): Promise<boolean> {
    // One statement: the row's new generation is what every later download compares with.
    // Not a change of the record the API shows, so version and updatedAt stay.
    const updated = await this.#db
      .updateTable('files')
      .set((eb) => ({ links_generation: eb('links_generation', '+', 1) }))
      .where('id', '=', id)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  commitUpload(
    id: string,
    upload: PendingUpload,
    quotas?: QuotaLimits,
  ): Promise<{ replaced: string | null } | 'verified' | 'missing'> {
    return writeTransaction(this.#db, async (trx) => {
      // A no-op update first: it locks the row (PostgreSQL; SQLite's BEGIN IMMEDIATE holds the
      // whole database) until commit, and answers the pending upload this commit replaces,
      // read after any concurrent commit. The condition lives in the database, so a PUT that
      // ends after verify (on any process or node) can never change a verified record.
      const current = await trx
        .updateTable('files')
        .set((eb) => ({ upload_blob_version: eb.ref('upload_blob_version') }))
        .where('id', '=', id)
        .where('verified', '=', 0)
        .returning([
          'upload_blob_version',
          'upload_size_bytes',
          'expected_size_bytes',
          'project_id',
          'creator_id',
        ])
        .executeTakeFirst();
      if (current === undefined) {
        const now = await trx.selectFrom('files').select('verified').where('id', '=', id).executeTakeFirst();
        return now === undefined ? 'missing' : 'verified';
      }
      await trx
        .updateTable('files')
        .set({
          upload_blob_version: upload.blobVersion,
          upload_etag: upload.etag,
          upload_size_bytes: upload.sizeBytes,
          upload_content_type: upload.contentType,
          upload_last_modified: upload.lastModified.getTime(),
          upload_sha256: upload.checksumSha256 ?? null,
        })
        .where('id', '=', id)
        .execute();
      const countedBefore = Number(current.upload_size_bytes ?? current.expected_size_bytes ?? 0);
      if (quotas && upload.sizeBytes > countedBefore) {
        const owner = { projectId: current.project_id, userId: current.creator_id };
        await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
      }
      return { replaced: current.upload_blob_version };
    });
  }

  markVerified(
    id: string,
    verification: {
      blobVersion: string;
      etag: string;
      content: FileContentInfo;
      pendingVersion: string | null;
    },
    now: Date,
    quotas?: QuotaLimits,
  ): Promise<FileRecord | undefined> {
    const { blobVersion, etag, content, pendingVersion } = verification;
    return writeTransaction(this.#db, async (trx) => {
      const updated = await trx
        .updateTable('files')
        .set((eb) => ({
          verified: 1,
          etag,
          content_size_bytes: content.sizeBytes,
          content_type: content.contentType,
          content_last_modified: content.lastModified.getTime(),
          blob_version: blobVersion,
          upload_blob_version: null,
          upload_etag: null,
          upload_size_bytes: null,
          upload_content_type: null,
          upload_last_modified: null,
          content_sha256: content.checksumSha256 ?? null,
          upload_sha256: null,
          version: eb('version', '+', 1),
          updated_at: now.getTime(),
        }))
        .where('id', '=', id)
        .where('verified', '=', 0)
        .where((eb) =>
          pendingVersion === null
            ? eb('upload_blob_version', 'is', null)
            : eb('upload_blob_version', '=', pendingVersion),
        )
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return undefined;
      const verified = await findFileById(trx, id);
      if (quotas && verified) {
        const owner = { projectId: verified.projectId, userId: verified.creatorId };
        await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
      }
      return verified;
    });
  }

  async updateCustomData(id: string, customData: CustomData, now: Date): Promise<FileRecord | undefined> {
    return writeTransaction(this.#db, async (trx) => {
      const updated = await trx
        .updateTable('files')
        .set((eb) => ({
          custom_data: JSON.stringify(customData),
          version: eb('version', '+', 1),
          updated_at: now.getTime(),
        }))
        .where('id', '=', id)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n ? findFileById(trx, id) : undefined;
    });
  }

  async findBlobReferences(ids: readonly string[]): Promise<Map<string, BlobReferences>> {
    const references = new Map<string, BlobReferences>();
    if (ids.length === 0) return references;
    // By primary key: an index lookup per id, whatever the size of the table.
    const rows = await this.#db
      .selectFrom('files')
      .select(['id', 'project_id', 'verified', 'blob_version', 'upload_blob_version'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      references.set(row.id, {
        projectId: row.project_id,
        verified: row.verified === 1,
        blobVersion: row.blob_version,
        uploadBlobVersion: row.upload_blob_version,
      });
    }
    return references;
  }

  /**
   * One ACL change in one transaction. The version bump comes first: it locks the file row
   * (PostgreSQL) or holds the write lock (SQLite), so concurrent changes of one file queue up,
   * and the version it returns is this change's own, which becomes the new entry's position.
   * When the change turns out to be a no-op, the rollback undoes the bump: nothing changes.
   */
  #changeAcl(
    id: string,
    now: Date,
    change: (trx: Kysely<DatabaseSchema>, version: number) => Promise<boolean>,
  ): Promise<FileRecord | undefined> {
    return writeTransaction(this.#db, async (trx) => {
      const bumped = await trx
        .updateTable('files')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: now.getTime() }))
        .where('id', '=', id)
        .returning('version')
        .executeTakeFirst();
      if (bumped === undefined) return undefined;
      if (await change(trx, bumped.version)) return findFileById(trx, id);
      await trx.rollback().execute();
      return findFileById(this.#db, id);
    });
  }
}

/**
 * Makes room at the creator's filePath when the record there is an abandoned upload (never
 * verified, link expired at `now`); returns it so the caller can delete its blob after the
 * commit. A live record stays, and the insert that follows fails with FILE_EXISTS.
 */
async function deleteAbandonedUpload(
  trx: Kysely<DatabaseSchema>,
  file: Pick<NewFile, 'projectId' | 'creatorId' | 'filePath'>,
  now: Date,
): Promise<ReplacedUpload | undefined> {
  const existing = await trx
    .selectFrom('files')
    .select(['id', 'verified', 'upload_expires_at', 'upload_blob_version'])
    .where('project_id', '=', file.projectId)
    .where('creator_id', '=', file.creatorId)
    .where('file_path', '=', file.filePath)
    .executeTakeFirst();
  if (existing === undefined) return undefined;
  const abandoned = existing.verified === 0 && existing.upload_expires_at < now.getTime() / 1000;
  if (!abandoned) throw fileExists();
  const deleted = await trx.deleteFrom('files').where('id', '=', existing.id).executeTakeFirst();
  // Zero rows: a concurrent create replaced it first, and our insert will hit its new record.
  return deleted.numDeletedRows > 0n
    ? { id: existing.id, pendingBlobVersion: existing.upload_blob_version }
    : undefined;
}
