import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { TrashRepository } from '../../../domain/trash/trash-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { mirroredAclColumns, mirroredFileColumns } from '../../migrations/trash-mirror-columns.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';

const fileColumns = sql.raw(mirroredFileColumns.join(', '));
const aclColumns = sql.raw(mirroredAclColumns.join(', '));

/**
 * Moves the verified, unheld files `selection` names (a condition on `files`) to the trash:
 * their rows and ACLs copied to trashed_files / trashed_file_acl, their versions no longer
 * counted, then their `files` rows deleted. The trashed row is inserted FIRST: the files delete
 * trigger keeps the versions of a file that has one (migrations/versions-and-trash.ts). Answers
 * the ids moved. The caller's transaction makes it all or nothing.
 */
export async function moveFilesToTrash(
  trx: Kysely<DatabaseSchema>,
  selection: RawBuilder<boolean>,
  by: { trashedAt: number; trashedBy: string },
): Promise<string[]> {
  // held_bytes: what the trashed file keeps in the store, its content and its versions' bytes.
  const moved = await sql<{
    id: string;
  }>`insert into trashed_files (${fileColumns}, trashed_at, trashed_by, held_bytes)
    select ${fileColumns}, cast(${by.trashedAt} as bigint), cast(${by.trashedBy} as text),
      coalesce(content_size_bytes, 0)
        + coalesce((select sum(v.size_bytes) from file_versions v where v.file_id = files.id), 0)
    from files where ${selection} and verified = 1 and hold_reason is null
    returning id`.execute(trx);
  const ids = moved.rows.map((row) => row.id);
  if (ids.length === 0) return ids;
  // The moved set: the rows in both tables for the moment (no id list: a folder may move 100,000).
  const trashed = sql`(select files.id from files join trashed_files t on t.id = files.id where ${selection})`;
  await sql`insert into trashed_file_acl (${aclColumns})
    select ${aclColumns} from file_acl where file_id in ${trashed}`.execute(trx);
  // Trashed bytes do not count against quotas: the usage triggers take them out here.
  await sql`update file_versions set counted = 0 where file_id in ${trashed}`.execute(trx);
  return ids;
}

/** A condition on `files`: the row was just moved to the trash (its trashed row exists). */
export const inTrash = sql<boolean>`exists (select 1 from trashed_files t where t.id = files.id)`;

/** TrashRepository.trash: one file, with its events, in one transaction. */
export async function trashFile(
  db: Kysely<DatabaseSchema>,
  request: Parameters<TrashRepository['trash']>[0],
): Promise<'trashed' | 'held' | 'missing'> {
  return writeTransaction(db, async (trx) => {
    const selection = sql<boolean>`files.id = ${request.fileId}`;
    // The row locked first (PostgreSQL): a new version, a move or a hold committing meanwhile
    // is either before this (and moved with the row) or after it (and finds no file).
    if (!isSqlite(trx))
      await trx.selectFrom('files').select('id').where('id', '=', request.fileId).forUpdate().execute();
    const ids = await moveFilesToTrash(trx, selection, {
      trashedAt: request.at.getTime(),
      trashedBy: request.trashedBy,
    });
    if (ids.length === 0) {
      // Nothing moved: say why, from the same transaction's view.
      const row = await trx
        .selectFrom('files')
        .select(['verified', 'hold_reason'])
        .where('id', '=', request.fileId)
        .executeTakeFirst();
      return row?.hold_reason != null ? 'held' : 'missing';
    }
    // file_acl and renditions rows go with it (ON DELETE CASCADE).
    await trx.deleteFrom('files').where('id', '=', request.fileId).execute();
    await insertEvents(trx, request.events);
    return 'trashed';
  });
}
