import { type Kysely, SqliteAdapter } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A filePath prefix that few files of a project hold is a short range of this index on
 * SQLite (its BINARY collation is code-point order in UTF-8, as the prefix range assumes):
 * listing then reads those files, not the reader's whole set in time order looking for them
 * (list-files.ts). PostgreSQL has had its "C"-collated path indexes since 0006.
 */
export const sqlitePathIndex: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    // Covering: the range answers each file's listing key (created_at, id) without its row.
    await db.schema
      .createIndex('files_project_path_idx')
      .on('files')
      .columns(['project_id', 'file_path', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    await db.schema.dropIndex('files_project_path_idx').execute();
  },
};
