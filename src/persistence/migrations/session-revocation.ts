import { type Kysely, SqliteAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The `access_epoch` row that counts ended sessions (row 1 counts changed projects and users). */
export const sessionEpochId = 2;

/**
 * Sessions end at once (docs/decisions.md, "Ending a session ends its access tokens"):
 * - `access_epoch` row 2, the session epoch: the database bumps it whenever a live
 *   refresh-token family is deleted (logout, password change or reset, reuse revocation, a
 *   project's deletion), whoever deletes it. Processes cache which sessions are live and
 *   re-read only this number, as they do row 1 for projects and users. Deleting a family past
 *   its expiry (the sweep) bumps nothing: its session had already ended, and a sweep runs with
 *   every login. Rotations update families and are not watched.
 * - `refresh_token_families.secret`: the key a family's successor tokens are derived with, so a
 *   refresh repeated within the reuse grace answers the same successor
 *   (domain/identity/refresh-token-service.ts). Families that exist already get one here.
 */
export const sessionRevocation: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema.alterTable('refresh_token_families').addColumn('secret', 'text').execute();
    // 256 random bits each (gen_random_uuid: 122 random bits, built in since PostgreSQL 13).
    await (sqlite
      ? sql`update refresh_token_families set secret = lower(hex(randomblob(32)))`
      : sql`update refresh_token_families
          set secret = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`
    ).execute(db);
    await sql`insert into access_epoch (id, value) values (${sessionEpochId}, 0)`.execute(db);
    if (sqlite) {
      // Unix ms from SQLite's clock, as the columns hold it.
      await sql`create trigger refresh_token_families_delete_session_epoch
        after delete on refresh_token_families
        when old.expires_at > (julianday('now') - 2440587.5) * 86400000
        begin update access_epoch set value = value + 1 where id = ${sql.lit(sessionEpochId)}; end`.execute(
        db,
      );
      return;
    }
    // One bump per statement (a project's deletion ends thousands of sessions at once).
    await sql`create function bump_session_epoch() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from ended_families
                   where expires_at > extract(epoch from clock_timestamp()) * 1000) then
          update access_epoch set value = value + 1 where id = ${sql.lit(sessionEpochId)};
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger refresh_token_families_session_epoch
      after delete on refresh_token_families referencing old table as ended_families
      for each statement execute function bump_session_epoch()`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`drop trigger refresh_token_families_delete_session_epoch`.execute(db);
    } else {
      // The trigger goes with its function.
      await sql`drop function bump_session_epoch() cascade`.execute(db);
    }
    await sql`delete from access_epoch where id = ${sessionEpochId}`.execute(db);
    await db.schema.alterTable('refresh_token_families').dropColumn('secret').execute();
  },
};
