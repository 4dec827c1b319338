import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { FileHold, FileRecord } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';
import { findFileById } from './file-rows.ts';

/**
 * FileRepository.setHold: sets (or, with null, clears) the legal hold of a verified file, a
 * new version of the record. Clearing changes only a held file, so two releases write one event.
 */
export function setHold(
  db: Kysely<DatabaseSchema>,
  id: string,
  hold: FileHold | null,
  now: Date,
  event?: NewEvent,
): Promise<FileRecord | undefined> {
  return writeTransaction(db, async (trx) => {
    let update = trx
      .updateTable('files')
      .set((eb) => ({
        hold_reason: hold?.reason ?? null,
        held_at: hold?.heldAt.getTime() ?? null,
        held_by: hold?.heldBy ?? null,
        version: eb('version', '+', 1),
        updated_at: now.getTime(),
      }))
      .where('id', '=', id);
    update = hold ? update.where('verified', '=', 1) : update.where('hold_reason', 'is not', null);
    const updated = await update.executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return undefined;
    await insertEvents(trx, [event]);
    return findFileById(trx, id);
  });
}
