import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { CustomData } from '../../../domain/files/custom-data.ts';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';
import { findFileById } from './file-rows.ts';

/** FileRepository.updateCustomData: replaces the record's custom data, a new version. */
export function updateCustomData(
  db: Kysely<DatabaseSchema>,
  id: string,
  customData: CustomData,
  now: Date,
  event?: NewEvent,
): Promise<FileRecord | undefined> {
  return writeTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('files')
      .set((eb) => ({
        custom_data: JSON.stringify(customData),
        version: eb('version', '+', 1),
        updated_at: now.getTime(),
      }))
      .where('id', '=', id)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return undefined;
    await insertEvents(trx, [event]);
    return findFileById(trx, id);
  });
}
