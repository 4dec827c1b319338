import { type ControlledTransaction, type Kysely, sql } from 'kysely';
import type {
  DeletedFile,
  FolderDeletion,
  FolderRefusal,
} from '../../../domain/folders/folder-change-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { countedBytes } from '../../migrations/storage-usage.ts';
import { inTrash, moveFilesToTrash } from '../trash/trash-files.ts';
import { writeTransaction } from '../write-transaction.ts';
import { countUnderFolder, lockFolderAgainstWriters, underFolder } from './folder-range.ts';
import { insertEventsInBatches } from './insert-events-in-batches.ts';
import { deleteShares } from './move-folder-shares.ts';

/** FolderChangeRepository.deleteFolder: every file under the folder, in one transaction, or none. */
export async function deleteFolder(
  db: Kysely<DatabaseSchema>,
  deletion: FolderDeletion,
): Promise<{ deleted: DeletedFile[] } | FolderRefusal> {
  return writeTransaction(db, (trx) => deleteOnce(trx, deletion));
}

async function deleteOnce(
  trx: ControlledTransaction<DatabaseSchema>,
  deletion: FolderDeletion,
): Promise<{ deleted: DeletedFile[] } | FolderRefusal> {
  await lockFolderAgainstWriters(trx, deletion);
  const fileCount = await countUnderFolder(trx, deletion);
  if (fileCount === 0) return { refused: 'empty' };
  if (fileCount > deletion.maxFiles) return { refused: 'tooLarge', fileCount };
  // Held files (issue 38) stop the whole delete: judged after the lock, so no hold set since is missed.
  const held = await trx
    .selectFrom('files')
    .select('file_path')
    .where(underFolder(trx, deletion))
    .where('hold_reason', 'is not', null)
    .orderBy('file_path')
    .limit(1)
    .executeTakeFirst();
  if (held) return { refused: 'held', filePath: held.file_path };
  // Verified files go to the trash first (their rows copied), then every row leaves `files`.
  if (deletion.trash) await moveFilesToTrash(trx, underFolder(trx, deletion), deletion.trash);
  // One statement, which locks what it deletes: a racing upload commit, copy or single move of
  // one of these files waits for it, or wins first and is seen as it left the row. file_acl
  // (and renditions) rows go with the files (ON DELETE CASCADE); the storage_usage triggers
  // take the files out of their owner's usage in this commit.
  const rows = await trx
    .deleteFrom('files')
    .where(underFolder(trx, deletion))
    .returning([
      'id',
      'file_path',
      'verified',
      'blob_version',
      'upload_blob_version',
      'blob_file_id',
      sql<number | string>`${sql.raw(countedBytes('files'))}`.as('size_bytes'),
      sql<number | boolean>`${inTrash}`.as('trashed'),
    ])
    .execute();
  if (rows.length > deletion.maxFiles) {
    await trx.rollback().execute();
    return { refused: 'tooLarge', fileCount: rows.length };
  }
  if (rows.length === 0) return { refused: 'empty' };
  const deleted = rows.map((row) => ({
    id: row.id,
    filePath: row.file_path,
    sizeBytes: Number(row.size_bytes),
    verified: row.verified === 1,
    blobVersion: row.blob_version,
    pendingBlobVersion: row.upload_blob_version,
    blobFileId: row.blob_file_id,
    trashed: Boolean(row.trashed),
  }));
  // The folder's shares end, trashed or not: a later file at the same path is not shared, and a
  // restored file comes back with its own ACL only (test/folders/folder-shares.test.ts).
  await deleteShares(trx, deletion);
  await insertEventsInBatches(trx, deletion.eventsOf(deleted));
  return { deleted };
}
