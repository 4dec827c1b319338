import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Login and signup limits are counted here, so every worker and node shares them. One row per
 * bucket that is not full; `full_at` (Unix ms) is also its expiry, and the index lets the
 * clean-up find expired rows without a scan.
 */
export const rateLimitBuckets: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limit_buckets')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('full_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('rate_limit_buckets_full_at_idx')
      .on('rate_limit_buckets')
      .column('full_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_limit_buckets').execute();
  },
};
