import type { Kysely } from 'kysely';
import type { AdmissionRepository, AdmissionSlot } from '../../../domain/admission/admission-repository.ts';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';

const tableOf = { file: 'files', version: 'version_uploads' } as const;

/** AdmissionRepository over Kysely: `upload_admission` of `files` and `version_uploads` (migration 0045). */
export class KyselyAdmissionRepository implements AdmissionRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async read(slot: AdmissionSlot): Promise<string | null | undefined> {
    const row = await this.#db
      .selectFrom(tableOf[slot.kind])
      .select('upload_admission')
      .where('id', '=', slot.id)
      .where('upload_blob_version', '=', slot.blobVersion)
      .executeTakeFirst();
    return row === undefined ? undefined : row.upload_admission;
  }

  swap(
    slot: AdmissionSlot,
    expected: string | null,
    next: string | null,
    event?: NewEvent,
  ): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      // The compare-and-swap that makes one verify the asker: its claim, then its outcome,
      // land only over what it read, and only while the pending bytes are the ones asked about.
      const updated = await trx
        .updateTable(tableOf[slot.kind])
        .set({ upload_admission: next })
        .where('id', '=', slot.id)
        .where('upload_blob_version', '=', slot.blobVersion)
        .where((eb) =>
          expected === null ? eb('upload_admission', 'is', null) : eb('upload_admission', '=', expected),
        )
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await insertEvents(trx, [event]);
      return true;
    });
  }
}
