import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { ReplacedUpload } from '../../../domain/files/file-repository.ts';
import { fileExists, fileOnHold } from '../../../errors/errors.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';
import { deleteAbandonedUpload } from './delete-abandoned-upload.ts';
import { findFileById } from './file-rows.ts';

/** FileRepository.move: the record (its bytes and ACL unchanged) at a new path of its creator. */
export async function moveFile(
  db: Kysely<DatabaseSchema>,
  id: string,
  filePath: string,
  now: Date,
  event?: NewEvent,
): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined> {
  try {
    return await writeTransaction(db, async (trx) => {
      const current = await trx
        .updateTable('files')
        .set((eb) => ({ version: eb.ref('version') }))
        .where('id', '=', id)
        .returning(['project_id', 'creator_id', 'file_path', 'hold_reason'])
        .executeTakeFirst();
      if (current === undefined) return undefined;
      // Judged under the row's lock, which a hold's write takes too: a hold that committed
      // first is seen, and one that comes later waits for this move (issue 38, item 4).
      if (current.hold_reason !== null) throw fileOnHold(current.file_path);
      if (current.file_path === filePath) return { file: (await findFileById(trx, id))! };
      const target = { projectId: current.project_id, creatorId: current.creator_id, filePath };
      const replaced = await deleteAbandonedUpload(trx, target, now);
      await trx
        .updateTable('files')
        .set((eb) => ({ file_path: filePath, version: eb('version', '+', 1), updated_at: now.getTime() }))
        .where('id', '=', id)
        .where('hold_reason', 'is', null)
        .execute();
      await insertEvents(trx, [event]);
      const file = (await findFileById(trx, id))!;
      return replaced === undefined ? { file } : { file, replaced };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fileExists();
    throw error;
  }
}
