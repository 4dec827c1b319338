import { type Kysely, type Selectable, sql } from 'kysely';
import type {
  ArchiveEntry,
  ArchiveRecord,
  ArchiveRepository,
} from '../../../domain/archives/archive-repository.ts';
import type { ArchiveEntriesTable, ArchivesTable } from '../../archive-schema.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { writeTransaction } from '../write-transaction.ts';

/** Rows a single insert carries: 13 columns each, under SQLite's and PostgreSQL's parameter limits. */
const insertBatch = 500;
/** Expired archives removed at each creation: the table never grows past what is live, a few at a time. */
const expiredPerCreation = 3;

export class KyselyArchiveRepository implements ArchiveRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(archive: ArchiveRecord, entries: readonly ArchiveEntry[], now: Date): Promise<void> {
    await writeTransaction(this.#db, async (trx) => {
      const expired = await trx
        .selectFrom('archives')
        .select('id')
        .where('expires_at', '<=', now.getTime())
        .orderBy('expires_at')
        .limit(expiredPerCreation)
        .execute();
      if (expired.length > 0) {
        const ids = expired.map((row) => row.id);
        await trx.deleteFrom('archive_entries').where('archive_id', 'in', ids).execute();
        await trx.deleteFrom('archives').where('id', 'in', ids).execute();
      }
      await trx.insertInto('archives').values(toArchiveRow(archive)).execute();
      for (let at = 0; at < entries.length; at += insertBatch) {
        const rows = entries.slice(at, at + insertBatch).map((entry) => toEntryRow(archive.id, entry));
        await trx.insertInto('archive_entries').values(rows).execute();
      }
    });
  }

  async findById(id: string): Promise<ArchiveRecord | undefined> {
    const row = await this.#db.selectFrom('archives').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toArchiveRecord(row);
  }

  async countStaleEntries(archiveId: string): Promise<number> {
    // Each entry is one primary-key probe of files: the cost is the archive's size, never the project's.
    const row = await this.#db
      .selectFrom('archive_entries as e')
      .leftJoin('files as f', (join) =>
        join
          .onRef('f.id', '=', 'e.file_id')
          .onRef('f.blob_version', '=', 'e.blob_version')
          .onRef('f.links_generation', '=', 'e.links_generation')
          .on('f.verified', '=', 1),
      )
      .select(sql<number | string>`count(*)`.as('stale'))
      .where('e.archive_id', '=', archiveId)
      .where('f.id', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.stale);
  }

  positionAtOffset(archiveId: string, offset: number): Promise<number> {
    return this.#positionAt(archiveId, 'local_header_offset', offset);
  }

  positionAtCentralOffset(archiveId: string, centralOffset: number): Promise<number> {
    return this.#positionAt(archiveId, 'central_offset', centralOffset);
  }

  /** The entry whose record (local or central, by `column`) holds `offset`: one index probe. */
  async #positionAt(
    archiveId: string,
    column: 'local_header_offset' | 'central_offset',
    offset: number,
  ): Promise<number> {
    const row = await this.#db
      .selectFrom('archive_entries')
      .select('position')
      .where('archive_id', '=', archiveId)
      .where(column, '<=', offset)
      .orderBy(column, 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.position ?? 0;
  }

  async entriesFrom(archiveId: string, position: number, limit: number): Promise<ArchiveEntry[]> {
    const rows = await this.#db
      .selectFrom('archive_entries')
      .selectAll()
      .where('archive_id', '=', archiveId)
      .where('position', '>=', position)
      .orderBy('position')
      .limit(limit)
      .execute();
    return rows.map(toEntry);
  }

  async saveEntryCrc(archiveId: string, position: number, crc32: number): Promise<void> {
    await this.#db
      .updateTable('archive_entries')
      .set({ crc32 })
      .where('archive_id', '=', archiveId)
      .where('position', '=', position)
      .execute();
  }
}

function toArchiveRow(archive: ArchiveRecord): ArchivesTable {
  return {
    id: archive.id,
    project_id: archive.projectId,
    creator_id: archive.creatorId,
    created_at: archive.createdAt.getTime(),
    expires_at: archive.expiresAt.getTime(),
    file_count: archive.fileCount,
    total_bytes: archive.totalBytes,
    archive_bytes: archive.archiveBytes,
    central_offset: archive.centralOffset,
    central_size: archive.centralSize,
    etag: archive.etag,
    file_name: archive.fileName,
  };
}

function toArchiveRecord(row: Selectable<ArchivesTable>): ArchiveRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    creatorId: row.creator_id,
    createdAt: new Date(Number(row.created_at)),
    expiresAt: new Date(Number(row.expires_at)),
    fileCount: row.file_count,
    totalBytes: Number(row.total_bytes),
    archiveBytes: Number(row.archive_bytes),
    centralOffset: Number(row.central_offset),
    centralSize: Number(row.central_size),
    etag: row.etag,
    fileName: row.file_name,
  };
}

function toEntryRow(archiveId: string, entry: ArchiveEntry): ArchiveEntriesTable {
  return {
    archive_id: archiveId,
    position: entry.position,
    file_id: entry.fileId,
    blob_version: entry.blobVersion,
    links_generation: entry.linksGeneration,
    storage_key: entry.storageKey,
    name: entry.name,
    size: entry.size,
    crc32: entry.crc32,
    has_descriptor: entry.hasDescriptor ? 1 : 0,
    modified_at: entry.modifiedAt.getTime(),
    local_header_offset: entry.localHeaderOffset,
    central_offset: entry.centralOffset,
  };
}

function toEntry(row: Selectable<ArchiveEntriesTable>): ArchiveEntry {
  return {
    position: row.position,
    fileId: row.file_id,
    blobVersion: row.blob_version,
    linksGeneration: row.links_generation,
    storageKey: row.storage_key,
    name: row.name,
    size: Number(row.size),
    crc32: row.crc32 === null ? null : Number(row.crc32),
    hasDescriptor: row.has_descriptor === 1,
    modifiedAt: new Date(Number(row.modified_at)),
    localHeaderOffset: Number(row.local_header_offset),
    centralOffset: Number(row.central_offset),
  };
}
