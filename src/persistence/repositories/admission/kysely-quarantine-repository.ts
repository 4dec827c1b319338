import { type Kysely, sql } from 'kysely';
import type {
  QuarantineRepository,
  StoredVersion,
  StoredVersionCursor,
} from '../../../domain/admission/quarantine-repository.ts';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { FileQuarantineState, FileRecord } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { findFileById, toFileRecords } from '../files/file-rows.ts';
import { writeTransaction } from '../write-transaction.ts';

/** QuarantineRepository over Kysely (SQLite and PostgreSQL alike). */
export class KyselyQuarantineRepository implements QuarantineRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  quarantine(fileId: string, state: FileQuarantineState, event: NewEvent): Promise<FileRecord | undefined> {
    return writeTransaction(this.#db, async (trx) => {
      // security: the links generation moves on in the same statement, so every link issued
      // before (gateway downloads, renditions, archives) is refused at once on every node. A
      // change of the record the API shows (it gains `quarantine`): version and updatedAt move.
      const updated = await trx
        .updateTable('files')
        .set((eb) => ({
          quarantined_at: state.quarantinedAt.getTime(),
          quarantine_signature: state.signature,
          quarantine_version_id: state.versionId,
          links_generation: eb('links_generation', '+', 1),
          version: eb('version', '+', 1),
          updated_at: state.quarantinedAt.getTime(),
        }))
        .where('id', '=', fileId)
        .where('quarantined_at', 'is', null)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return undefined;
      await insertEvents(trx, [event]);
      return findFileById(trx, fileId);
    });
  }

  release(fileId: string, now: Date, event: NewEvent): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      // The links generation stays moved on: links of before the quarantine stay dead.
      const updated = await trx
        .updateTable('files')
        .set((eb) => ({
          quarantined_at: null,
          quarantine_signature: null,
          quarantine_version_id: null,
          version: eb('version', '+', 1),
          updated_at: now.getTime(),
        }))
        .where('id', '=', fileId)
        .where('quarantined_at', 'is not', null)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await insertEvents(trx, [event]);
      return true;
    });
  }

  async listQuarantined(projectId: string, page: { limit: number; offset: number }): Promise<FileRecord[]> {
    // files_quarantined: the project's quarantined rows only.
    const rows = await this.#db
      .selectFrom('files')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('quarantined_at', 'is not', null)
      .orderBy('quarantined_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return toFileRecords(this.#db, rows);
  }

  async listStoredVersions(query: {
    projectId: string;
    since: Date;
    after?: StoredVersionCursor;
    limit: number;
  }): Promise<StoredVersion[]> {
    const since = query.since.getTime();
    const current = this.#db
      .selectFrom('files')
      .select([
        'id as file_id',
        sql<string>`coalesce(version_id, id)`.as('version_id'),
        sql<string>`coalesce(blob_file_id, id)`.as('blob_file_id'),
        sql<string>`blob_version`.as('blob_version'),
        sql<number>`content_size_bytes`.as('size_bytes'),
        sql<number>`coalesce(version_created_at, created_at)`.as('created_at'),
        sql<number>`1`.as('current'),
      ])
      .where('project_id', '=', query.projectId)
      .where('verified', '=', 1)
      .where('blob_version', 'is not', null);
    const earlier = this.#db
      .selectFrom('file_versions')
      .select([
        'file_id',
        'version_id',
        'blob_file_id',
        'blob_version',
        'size_bytes',
        'created_at',
        sql<number>`0`.as('current'),
      ])
      .where('project_id', '=', query.projectId);
    let page = this.#db
      .selectFrom(current.unionAll(earlier).as('v'))
      .selectAll()
      .where('v.created_at', '>=', since);
    const after = query.after;
    if (after !== undefined)
      page = page.where((eb) =>
        eb.or([
          eb('v.created_at', '>', after.createdAt.getTime()),
          eb.and([
            eb('v.created_at', '=', after.createdAt.getTime()),
            eb('v.version_id', '>', after.versionId),
          ]),
        ]),
      );
    const rows = await page.orderBy('v.created_at').orderBy('v.version_id').limit(query.limit).execute();
    return rows.map((row) => ({
      fileId: row.file_id,
      projectId: query.projectId,
      versionId: row.version_id,
      blobFileId: row.blob_file_id,
      blobVersion: row.blob_version,
      sizeBytes: Number(row.size_bytes),
      createdAt: new Date(Number(row.created_at)),
      current: Number(row.current) === 1,
    }));
  }
}
