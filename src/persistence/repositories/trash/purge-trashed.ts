import type { Kysely } from 'kysely';
import type { PurgedBlob, TrashedFile, TrashRepository } from '../../../domain/trash/trash-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';
import { toTrashedFiles } from './list-trash.ts';

/**
 * TrashRepository.purge: the trashed row deleted (its ACL by cascade, its versions by the
 * trashed_files delete trigger), answering the blob versions it referenced, read in the same
 * transaction. Their bytes are the caller's to remove after the commit, once nothing else
 * references them (copies, other versions).
 */
export async function purgeTrashed(
  db: Kysely<DatabaseSchema>,
  request: Parameters<TrashRepository['purge']>[0],
): Promise<{ purged: TrashedFile; blobs: PurgedBlob[] } | 'held' | undefined> {
  return writeTransaction(db, async (trx) => {
    // Locked until commit (PostgreSQL): a concurrent restore of the same file waits, then finds
    // nothing, or this waits for the restore and finds nothing to purge.
    let query = trx
      .selectFrom('trashed_files')
      .selectAll()
      .where('id', '=', request.id)
      .where('project_id', '=', request.projectId);
    if (!isSqlite(trx)) query = query.forUpdate();
    const rows = await query.execute();
    const row = rows[0];
    if (row === undefined) return undefined;
    if (row.hold_reason !== null) return 'held';
    const versions = await trx
      .selectFrom('file_versions')
      .select(['blob_file_id', 'blob_version'])
      .where('file_id', '=', request.id)
      .execute();
    const [purged] = await toTrashedFiles(trx, rows);
    // The hold is re-checked by the delete itself.
    const deleted = await trx
      .deleteFrom('trashed_files')
      .where('id', '=', request.id)
      .where('hold_reason', 'is', null)
      .executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return undefined;
    await insertEvents(trx, [request.eventOf(purged!)]);
    const blobs: PurgedBlob[] = versions.map((v) => ({
      blobFileId: v.blob_file_id,
      version: v.blob_version,
    }));
    if (row.blob_version !== null)
      blobs.push({ blobFileId: row.blob_file_id ?? row.id, version: row.blob_version });
    return { purged: purged!, blobs };
  });
}
