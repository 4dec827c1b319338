import { type Kysely, sql } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';

/**
 * Deletes at most `limit` rows of `table` whose `deadline` (Unix ms) has passed, oldest first:
 * the few-at-a-time cleanup later writes do for tables that only grow (rate-limit buckets,
 * refresh-token families). The condition is checked again on each row itself, so a write that
 * moved a row's deadline since the subquery read it wins (PostgreSQL re-evaluates it on the
 * updated row before deleting; SQLite's writer holds the database). Answers the rows deleted.
 */
export async function deleteExpiredRows(
  db: Kysely<DatabaseSchema>,
  where: {
    table: 'rate_limit_buckets' | 'refresh_token_families' | 'oauth_flows' | 'passkey_challenges';
    key: string;
    deadline: string;
  },
  now: Date,
  limit: number,
): Promise<number> {
  const table = sql.table(where.table);
  const key = sql.ref(where.key);
  const deadline = sql.ref(where.deadline);
  const nowMs = now.getTime();
  const result = await sql`
    delete from ${table} where ${deadline} <= ${nowMs} and ${key} in (
      select ${key} from ${table} where ${deadline} <= ${nowMs} order by ${deadline} limit ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
