import { type Compilable, type Kysely, type Selectable, sql } from 'kysely';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema, FilesTable } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { prepareStatement } from '../prepared-query.ts';
import { toFileRecords } from './file-rows.ts';
import type { FileViewCache } from './file-view-cache.ts';

/** A file a page answers, as its own query found it: its id and its row stamp. */
export type FileKey = { id: string; row_stamp: unknown };

/**
 * The records of a page of files known by id and row stamp (a page of "shared with me"), kept
 * as a point read keeps one (file-view-cache.ts): when each is kept with that stamp, the page
 * is the kept records, built and made wire views once; otherwise every one is read whole (the
 * rows, their ACLs and folder shares) and kept, so a page is never part kept and part read.
 * The rows' read is one statement compiled once, the ids one parameter whatever their count.
 */
export class KeptFileRecords {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #views: FileViewCache;
  readonly #selectRows: (db: Kysely<DatabaseSchema>, ids: unknown) => Promise<Selectable<FilesTable>[]>;

  constructor(db: Kysely<DatabaseSchema>, views: FileViewCache) {
    this.#db = db;
    this.#views = views;
    const idIn = (ids: unknown) =>
      isSqlite(db) ? sql`id in (select value from json_each(${ids}))` : sql`id = any(${ids})`;
    this.#selectRows = prepareStatement(
      (ids: unknown): Compilable<Selectable<FilesTable>> => ({
        compile: () => sql<Selectable<FilesTable>>`select * from files where ${idIn(ids)}`.compile(db),
      }),
      1,
    );
  }

  /** The files' records by id; a file gone since its key was read is absent. */
  async read(keys: readonly FileKey[]): Promise<Map<string, FileRecord>> {
    const kept = new Map<string, FileRecord>();
    for (const key of keys) {
      const record = this.#views.findKept(key.id, key.row_stamp);
      if (record === undefined) return this.#readWhole(keys);
      kept.set(key.id, record);
    }
    return kept;
  }

  async #readWhole(keys: readonly FileKey[]): Promise<Map<string, FileRecord>> {
    const ids = keys.map((key) => key.id);
    const rows = await this.#selectRows(this.#db, isSqlite(this.#db) ? JSON.stringify(ids) : ids);
    const stamps = new Map(rows.map((row) => [row.id, row.row_stamp]));
    const records = await toFileRecords(this.#db, rows);
    return new Map(records.map((record) => [record.id, this.#views.keep(record, stamps.get(record.id))]));
  }
}
