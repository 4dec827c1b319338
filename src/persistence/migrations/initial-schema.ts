import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The first schema. Portable on purpose, so one set of migrations serves SQLite and
 * PostgreSQL: text, integer and bigint columns only; booleans are integer 0/1; timestamps are
 * bigint Unix milliseconds (files.upload_expires_at: Unix seconds, as the links carry it).
 */
export const initialSchema: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull().unique())
      .addColumn('app_id', 'text', (col) => col.notNull().unique())
      .addColumn('app_secret_hash', 'text', (col) => col.notNull())
      .addColumn('allowed_origins', 'text', (col) => col.notNull())
      .addColumn('admin_role', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id'))
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('email_normalized', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text', (col) => col.notNull())
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('display_name', 'text', (col) => col.notNull())
      .addColumn('enabled', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull())
      .addUniqueConstraint('users_project_email_unique', ['project_id', 'email_normalized'])
      .execute();

    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('project_id', 'text', (col) => col.notNull())
      .addColumn('creator_id', 'text', (col) => col.notNull())
      .addColumn('file_path', 'text', (col) => col.notNull())
      .addColumn('permission_scope', 'text', (col) => col.notNull())
      .addColumn('verified', 'integer', (col) => col.notNull())
      .addColumn('etag', 'text')
      .addColumn('content_size_bytes', 'bigint')
      .addColumn('content_type', 'text')
      .addColumn('content_last_modified', 'bigint')
      .addColumn('upload_expires_at', 'bigint', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull())
      // DESIGN §3: the key <project>/<creator>/<filePath> is unique per project.
      .addUniqueConstraint('files_project_creator_path_unique', ['project_id', 'creator_id', 'file_path'])
      .execute();
    // GET /api/v1/file lists a project's files newest first (ties broken by id).
    await db.schema
      .createIndex('files_project_created_idx')
      .on('files')
      .columns(['project_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('file_acl')
      .addColumn('file_id', 'text', (col) => col.notNull().references('files.id').onDelete('cascade'))
      .addColumn('scope', 'text', (col) => col.notNull())
      .addColumn('identifier', 'text', (col) => col.notNull())
      // The file's version when the entry was added: keeps insertion order on both
      // dialects without an autoincrement column.
      .addColumn('position', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('file_acl_pk', ['file_id', 'scope', 'identifier'])
      .execute();
    // Listing: "which files name this user or this role?"
    await db.schema
      .createIndex('file_acl_scope_identifier_idx')
      .on('file_acl')
      .columns(['scope', 'identifier'])
      .execute();

    await db.schema
      .createTable('signing_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('purpose', 'text', (col) => col.notNull())
      .addColumn('secret', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['signing_keys', 'file_acl', 'files', 'users', 'projects']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
