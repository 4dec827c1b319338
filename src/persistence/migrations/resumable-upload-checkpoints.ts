import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 35 (items 3 and 5): `lease_holder` names the process that holds an upload's lease (its
 * node and pid, domain/resumable/lease-holder.ts), so a lease whose process died is free at
 * once on that node rather than after its expiry; `sha256_state` is the running SHA-256's saved
 * state at `upload_offset`, written in the same update as the offset, so a commit after a
 * crash or on another node hashes only the bytes that came after it.
 */
export const resumableUploadCheckpoints: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('resumable_uploads').addColumn('lease_holder', 'text').execute();
    await db.schema.alterTable('resumable_uploads').addColumn('sha256_state', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('resumable_uploads').dropColumn('sha256_state').execute();
    await db.schema.alterTable('resumable_uploads').dropColumn('lease_holder').execute();
  },
};
