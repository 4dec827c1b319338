import type { Kysely } from 'kysely';
import type { FolderRefusal } from '../../../domain/folders/folder-change-repository.ts';
import type { FolderShareChange } from '../../../domain/folders/folder-share-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';
import { countUnderFolder, underFolder } from './folder-range.ts';

/**
 * FolderShareRepository.shareFolder: the share and its event, and a new row stamp for every
 * file under the folder (a record kept per process is read anew, with the share), in one
 * transaction. The count first, as a folder move's: an empty folder or one past the limit
 * changes nothing.
 */
export async function shareFolder(
  db: Kysely<DatabaseSchema>,
  change: FolderShareChange & { maxFiles: number },
): Promise<{ shared: boolean } | FolderRefusal> {
  return writeTransaction(db, async (trx) => {
    const fileCount = await countUnderFolder(trx, change);
    if (fileCount === 0) return { refused: 'empty' };
    if (fileCount > change.maxFiles) return { refused: 'tooLarge', fileCount };
    const inserted = await trx
      .insertInto('folder_shares')
      .values({
        project_id: change.projectId,
        owner_id: change.ownerId,
        path: change.path,
        scope: change.entry.scope,
        identifier: change.entry.identifier,
        shared_at: change.now.getTime(),
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return { shared: false };
    // The row-stamp triggers move the stamp of each row an update touches, even a no-op one.
    await trx
      .updateTable('files')
      .set((eb) => ({ row_stamp: eb.ref('row_stamp') }))
      .where(underFolder(trx, change))
      .execute();
    await insertEvents(trx, [change.event]);
    return { shared: true };
  });
}

/**
 * FolderShareRepository.unshareFolder: the share goes, and every file under the folder gets a
 * new links generation in the same commit, so the links it let its grantee obtain stop at once
 * on every process and node (as unsharing a file does). Not bounded: a revocation must work
 * whatever the folder's size.
 */
export async function unshareFolder(
  db: Kysely<DatabaseSchema>,
  change: FolderShareChange,
): Promise<{ unshared: boolean }> {
  return writeTransaction(db, async (trx) => {
    const deleted = await trx
      .deleteFrom('folder_shares')
      .where('project_id', '=', change.projectId)
      .where('owner_id', '=', change.ownerId)
      .where('path', '=', change.path)
      .where('scope', '=', change.entry.scope)
      .where('identifier', '=', change.entry.identifier)
      .executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return { unshared: false };
    await trx
      .updateTable('files')
      .set((eb) => ({ links_generation: eb('links_generation', '+', 1) }))
      .where(underFolder(trx, change))
      .execute();
    await insertEvents(trx, [change.event]);
    return { unshared: true };
  });
}
