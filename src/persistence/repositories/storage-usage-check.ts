import type { Kysely } from 'kysely';
import type { QuotaLimits, StorageUsage } from '../../domain/files/storage-usage-repository.ts';
import { assertQuotas } from '../../domain/files/upload-limits.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { isSqlite } from '../is-sqlite.ts';
import { prepareStatement, type QueryExecutor } from './prepared-query.ts';

/**
 * The usage rows of a user and of their project (user_id ''), compiled once per dialect: it
 * runs in every upload request, where building it was ~5 % of the request's CPU.
 */
const usageQueries = new Map<
  boolean,
  (db: QueryExecutor, projectId: string, userId: string) => Promise<UsageRow[]>
>();
type UsageRow = { user_id: string; files: number | string; bytes: number | string };

function usageQueryFor(db: Kysely<DatabaseSchema>) {
  const sqlite = isSqlite(db);
  let query = usageQueries.get(sqlite);
  if (!query) {
    query = prepareStatement(
      (projectId: string, userId: string) =>
        db
          .selectFrom('storage_usage')
          .select(['user_id', 'files', 'bytes'])
          .where('project_id', '=', projectId)
          .where('user_id', 'in', [userId, '']),
      2,
    );
    usageQueries.set(sqlite, query);
  }
  return query;
}

/** The usage of a user (and of their project, user_id ''), as the usage triggers keep it. */
export async function readStorageUsage(
  db: Kysely<DatabaseSchema>,
  owner: { projectId: string; userId: string },
): Promise<{ user: StorageUsage; project: StorageUsage }> {
  const rows = await usageQueryFor(db)(db, owner.projectId, owner.userId);
  const find = (userId: string): StorageUsage => {
    const row = rows.find((candidate) => candidate.user_id === userId);
    return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
  };
  return { user: find(owner.userId), project: find('') };
}

/**
 * Inside the transaction that just wrote file rows (whose triggers changed the usage and, on
 * PostgreSQL, hold its rows locked until commit; SQLite's BEGIN IMMEDIATE holds the database):
 * throws QUOTA_EXCEEDED, so the caller's transaction rolls back, when a counter the write
 * grew is over its limit. Check-and-commit is one step: concurrent writers cannot both pass
 * a quota that has room for one. Any writer of file rows that can grow usage (uploads, copy)
 * calls this before it commits.
 */
export async function assertUsageWithin(
  trx: Kysely<DatabaseSchema>,
  owner: { projectId: string; userId: string },
  limits: QuotaLimits,
  grew: { files: boolean; bytes: boolean },
): Promise<void> {
  // No limit set (the default): nothing to compare, so nothing to read.
  if (Object.values(limits).every((limit) => limit === null)) return;
  assertQuotas(await readStorageUsage(trx, owner), limits, grew);
}
