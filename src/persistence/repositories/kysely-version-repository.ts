import type { Kysely } from 'kysely';
import type { NewEvent } from '../../domain/events/event.ts';
import type { FileRecord, PendingUpload } from '../../domain/files/file-record.ts';
import type { QuotaLimits } from '../../domain/files/storage-usage-repository.ts';
import type { FileVersion, ReleasedBlob, VersionUpload } from '../../domain/versions/file-version.ts';
import type {
  NewCurrentVersion,
  PromotionRefusal,
  VersionRepository,
} from '../../domain/versions/version-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { insertEvents } from './events/insert-events.ts';
import { assertUsageWithin } from './storage-usage-check.ts';
import { commitVersionUpload, recordVersionUpload } from './versions/commit-version-upload.ts';
import { promoteVersion } from './versions/promote-version.ts';
import { pruneOlderThan } from './versions/prune-versions.ts';
import { toFileVersion, toVersionUpload, toVersionUploadRow } from './versions/version-rows.ts';
import { writeTransaction } from './write-transaction.ts';

/** VersionRepository over Kysely (SQLite or PostgreSQL); the larger writes live under versions/. */
export class KyselyVersionRepository implements VersionRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async createUpload(upload: VersionUpload, quotas?: QuotaLimits): Promise<void> {
    await writeTransaction(this.#db, async (trx) => {
      await trx.insertInto('version_uploads').values(toVersionUploadRow(upload)).execute();
      if (quotas && (upload.declared.sizeBytes ?? 0) > 0) {
        const owner = { projectId: upload.projectId, userId: upload.creatorId };
        await assertUsageWithin(trx, owner, quotas, { files: false, bytes: true });
      }
    });
  }

  async findUpload(id: string): Promise<VersionUpload | undefined> {
    const row = await this.#db
      .selectFrom('version_uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toVersionUpload(row);
  }

  commitUpload(
    id: string,
    upload: PendingUpload,
    quotas?: QuotaLimits,
    event?: NewEvent,
  ): Promise<{ replaced: string | null } | 'missing'> {
    return commitVersionUpload(this.#db, id, upload, quotas, event);
  }

  recordUpload(
    id: string,
    expected: string | null,
    upload: PendingUpload,
    event?: NewEvent,
    quotas?: QuotaLimits,
  ): Promise<boolean> {
    return recordVersionUpload(this.#db, id, expected, upload, event, quotas);
  }

  promote(
    fileId: string,
    current: NewCurrentVersion,
    options: Parameters<VersionRepository['promote']>[2],
  ): Promise<{ file: FileRecord; pruned: ReleasedBlob[] } | PromotionRefusal> {
    return promoteVersion(this.#db, fileId, current, options);
  }

  async list(fileId: string): Promise<FileVersion[]> {
    const rows = await this.#db
      .selectFrom('file_versions')
      .selectAll()
      .where('file_id', '=', fileId)
      .orderBy('noncurrent_at', 'desc')
      .orderBy('version_id', 'desc')
      .execute();
    return rows.map(toFileVersion);
  }

  async find(fileId: string, versionId: string): Promise<FileVersion | undefined> {
    const row = await this.#db
      .selectFrom('file_versions')
      .selectAll()
      .where('file_id', '=', fileId)
      .where('version_id', '=', versionId)
      .executeTakeFirst();
    return row && toFileVersion(row);
  }

  delete(fileId: string, versionId: string, event: NewEvent): Promise<ReleasedBlob | 'missing' | 'held'> {
    return writeTransaction(this.#db, async (trx) => {
      // The hold is judged in the deleting statement: a hold placed meanwhile keeps the version.
      const deleted = await trx
        .deleteFrom('file_versions')
        .where('file_id', '=', fileId)
        .where('version_id', '=', versionId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('files').select('id').where('id', '=', fileId).where('hold_reason', 'is not', null),
            ),
          ),
        )
        .returning(['blob_file_id', 'blob_version'])
        .executeTakeFirst();
      if (deleted === undefined) {
        const held = await trx
          .selectFrom('files')
          .select('id')
          .where('id', '=', fileId)
          .where('hold_reason', 'is not', null)
          .executeTakeFirst();
        return held ? 'held' : 'missing';
      }
      await insertEvents(trx, [event]);
      return { blobFileId: deleted.blob_file_id, blobVersion: deleted.blob_version };
    });
  }

  pruneOlderThan(projectId: string, before: Date, limit: number): Promise<ReleasedBlob[]> {
    return writeTransaction(this.#db, (trx) => pruneOlderThan(trx, projectId, before, limit));
  }

  async deleteUploadIfNeverUploaded(id: string): Promise<boolean> {
    const deleted = await this.#db
      .deleteFrom('version_uploads')
      .where('id', '=', id)
      .where('upload_blob_version', 'is', null)
      .executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  async deleteExpiredUploads(expiredBefore: number, limit: number): Promise<VersionUpload[]> {
    return writeTransaction(this.#db, async (trx) => {
      const rows = await trx
        .selectFrom('version_uploads')
        .selectAll()
        .where('expires_at', '<', expiredBefore)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      if (rows.length === 0) return [];
      await trx
        .deleteFrom('version_uploads')
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
      return rows.map(toVersionUpload);
    });
  }
}
