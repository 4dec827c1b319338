import { type Kysely, sql } from 'kysely';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { ReplacedUpload } from '../../../domain/files/file-repository.ts';
import type { TrashRepository } from '../../../domain/trash/trash-repository.ts';
import { fileExists } from '../../../errors/errors.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { mirroredAclColumns, mirroredFileColumns } from '../../migrations/trash-mirror-columns.ts';
import { insertEvents } from '../events/insert-events.ts';
import { deleteAbandonedUpload } from '../files/delete-abandoned-upload.ts';
import { findFileById } from '../files/file-rows.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';
import { writeTransaction } from '../write-transaction.ts';

const aclColumns = sql.raw(mirroredAclColumns.join(', '));

/**
 * TrashRepository.restore: the trashed row moved back, the `files` row inserted FIRST (so the
 * trashed row's delete trigger keeps the versions: migrations/versions-and-trash.ts).
 */
export async function restoreTrashed(
  db: Kysely<DatabaseSchema>,
  request: Parameters<TrashRepository['restore']>[0],
): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined> {
  const { projectId, id, filePath, now } = request;
  try {
    return await writeTransaction(db, async (trx) => {
      // Locked until commit (PostgreSQL; SQLite's BEGIN IMMEDIATE holds the database): a
      // concurrent purge or restore of the same file waits, then finds nothing to do.
      let query = trx
        .selectFrom('trashed_files')
        .select(['creator_id'])
        .where('id', '=', id)
        .where('project_id', '=', projectId);
      if (!isSqlite(trx)) query = query.forUpdate();
      const trashed = await query.executeTakeFirst();
      if (trashed === undefined) return undefined;
      const owner = { projectId, creatorId: trashed.creator_id, filePath };
      const replaced = await deleteAbandonedUpload(trx, owner, now);
      const inserted = await sql`insert into files (${sql.raw(mirroredFileColumns.join(', '))})
        select ${sql.join(mirroredFileColumns.map((column) => restoredValue(column, filePath, now)))}
        from trashed_files where id = ${id}`.execute(trx);
      // Zero rows: a concurrent restore or purge won.
      if (Number(inserted.numAffectedRows ?? 0n) === 0) return undefined;
      await sql`insert into file_acl (${aclColumns})
        select ${aclColumns} from trashed_file_acl where file_id = ${id}`.execute(trx);
      // Its versions count against the quotas again (the usage triggers).
      await trx.updateTable('file_versions').set({ counted: 1 }).where('file_id', '=', id).execute();
      // trashed_file_acl rows go with it (ON DELETE CASCADE); its trash bytes leave the trash.
      await trx.deleteFrom('trashed_files').where('id', '=', id).execute();
      // Judged here, after the triggers moved the usage rows (locked until commit), as copies do.
      if (request.quotas) {
        const grew = { files: replaced === undefined, bytes: true };
        await assertUsageWithin(trx, { projectId, userId: trashed.creator_id }, request.quotas, grew);
      }
      const file = await findFileById(trx, id);
      if (file === undefined) return undefined;
      await insertEvents(trx, [request.eventOf(file)]);
      return replaced === undefined ? { file } : { file, replaced };
    });
  } catch (error) {
    // A live record that took the path between the check and the insert.
    if (isUniqueViolation(error)) throw fileExists();
    throw error;
  }
}

/**
 * What the restored row takes: the trashed row's column, but a new path if given, one more
 * links generation (links issued before the trashing stay dead), one more row stamp (no process
 * keeps the old record: file-view-cache.ts), one more version and a new updatedAt (a change of
 * the record the API shows).
 */
function restoredValue(column: (typeof mirroredFileColumns)[number], filePath: string, now: Date) {
  switch (column) {
    case 'file_path':
      return sql`cast(${filePath} as text)`;
    case 'links_generation':
    case 'row_stamp':
    case 'version':
      return sql`${sql.ref(column)} + 1`;
    case 'updated_at':
      return sql`cast(${now.getTime()} as bigint)`;
    default:
      return sql.ref(column);
  }
}
