import { type Kysely, sql } from 'kysely';
import type { DatabaseSchema } from './database-schema.ts';
import { backfillAclListingKeys } from './migrations/acl-listing-keys.ts';
import { copyLegacyAppCredentials } from './migrations/app-credentials.ts';
import { writeTransaction } from './repositories/write-transaction.ts';

/**
 * The tables in an order that respects their references (file_acl after files). rate_limit_buckets
 * is left out: its counters are transient. So are the refresh-token tables: sessions do not
 * move with an export, and users log in again on the new stores. Console operators, service
 * keys (their hashes) and webhook endpoints (with their signing secrets, which receivers keep verifying with) move;
 * the event log, its deliveries and the mail queue do not (docs/deploy.md says why). Versions
 * and the trash move (issue 38); version uploads on their way do not, as sessions do not.
 */
export const tablesInOrder = [
  'projects',
  'app_credentials',
  'service_keys',
  'users',
  'signing_keys',
  'files',
  'file_acl',
  'file_versions',
  'trashed_files',
  'trashed_file_acl',
  'folder_shares',
  'operators',
  'webhooks',
] as const;
export type TableName = (typeof tablesInOrder)[number];

/** Primary-key columns: a stable order to page through each table. */
const keyColumns: Record<TableName, string[]> = {
  projects: ['id'],
  app_credentials: ['app_id'],
  service_keys: ['project_id', 'name'],
  users: ['id'],
  signing_keys: ['id'],
  files: ['id'],
  file_acl: ['file_id', 'scope', 'identifier'],
  file_versions: ['file_id', 'version_id'],
  trashed_files: ['id'],
  trashed_file_acl: ['file_id', 'scope', 'identifier'],
  folder_shares: ['project_id', 'owner_id', 'path', 'scope', 'identifier'],
  operators: ['id'],
  webhooks: ['id'],
};

/**
 * Columns the database computes (generated): never exported, since an insert may not name
 * them, and an export stays readable by a version without them.
 */
const generatedColumns: Partial<Record<TableName, string[]>> = { files: ['folder_path'] };

const pageSize = 1000;

/**
 * Reads every row of every table, a page at a time (memory stays flat for millions of rows).
 * Rows are the portable column values (text and numbers), identical on SQLite and PostgreSQL.
 * Each page starts after the last key of the one before (a primary-key range, so each page
 * costs the same however far the export has gone; an OFFSET would rescan what came before).
 */
export async function* readAllRows(
  db: Kysely<DatabaseSchema>,
): AsyncGenerator<{ table: TableName; row: Record<string, unknown> }> {
  for (const table of tablesInOrder) {
    const keys = keyColumns[table];
    let after: unknown[] | undefined;
    for (;;) {
      let query = db.selectFrom(table).selectAll().limit(pageSize);
      if (after) {
        const columns = sql.join(keys.map((key) => sql.ref(key)));
        query = query.where(sql<boolean>`(${columns}) > (${sql.join(after)})`);
      }
      for (const column of keys) query = query.orderBy(column as never);
      const rows = (await query.execute()) as Record<string, unknown>[];
      for (const row of rows) {
        for (const column of generatedColumns[table] ?? []) delete row[column];
        yield { table, row };
      }
      if (rows.length < pageSize) break;
      const last = rows.at(-1)!;
      after = keys.map((key) => last[key]);
    }
  }
}

/** How many rows readAllRows will yield (for progress; one count per table). */
export async function countAllRows(db: Kysely<DatabaseSchema>): Promise<number> {
  let rows = 0;
  for (const table of tablesInOrder) {
    const counted = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .executeTakeFirstOrThrow();
    rows += Number(counted.rows);
  }
  return rows;
}

/** Inserts rows (in tablesInOrder order) in batches, inside one transaction: all or nothing. */
export async function writeAllRows(
  db: Kysely<DatabaseSchema>,
  rows: AsyncIterable<{ table: TableName; row: Record<string, unknown> }>,
): Promise<Record<TableName, number>> {
  const counts = Object.fromEntries(tablesInOrder.map((table) => [table, 0])) as Record<TableName, number>;
  await writeTransaction(
    db,
    async (trx) => {
      let batch: Record<string, unknown>[] = [];
      let batchTable: TableName | undefined;
      const flush = async () => {
        if (batchTable && batch.length > 0)
          await trx
            .insertInto(batchTable)
            .values(batch as never)
            .execute();
        batch = [];
      };
      for await (const { table, row } of rows) {
        if (!tablesInOrder.includes(table)) throw new Error(`unknown table ${JSON.stringify(table)}`);
        if (table !== batchTable || batch.length >= 200) await flush();
        batchTable = table;
        // A row that names a generated column (read with selectAll, not through readAllRows)
        // imports all the same: the database computes it.
        const generated = generatedColumns[table];
        batch.push(
          generated
            ? Object.fromEntries(Object.entries(row).filter(([column]) => !generated.includes(column)))
            : row,
        );
        counts[table] += 1;
      }
      await flush();
      // An export written before file_acl carried its listing keys leaves them at their defaults.
      await backfillAclListingKeys(trx);
      // An export written before app_credentials existed holds each project's first pair only.
      await copyLegacyAppCredentials(trx);
    },
    // Once only: the rows come from a stream, consumed as they are written.
    { replayable: false },
  );
  return counts;
}
