import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { AclEntry, FileRecord } from '../../../domain/files/file-record.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { writeTransaction } from '../write-transaction.ts';
import { findFileById } from './file-rows.ts';

/** FileRepository.addAclEntry: a share, counted in `version` only when it adds an entry. */
export function addAclEntry(
  db: Kysely<DatabaseSchema>,
  id: string,
  entry: AclEntry,
  now: Date,
  event?: NewEvent,
): Promise<FileRecord | undefined> {
  return changeAcl(db, { id, now, event }, async (trx, version) => {
    // The entry copies its file's listing keys (project, creation time) in the same statement.
    const inserted = await trx
      .insertInto('file_acl')
      .columns(['file_id', 'scope', 'identifier', 'position', 'project_id', 'file_created_at', 'shared_at'])
      .expression((eb) =>
        eb
          .selectFrom('files')
          .select((files) => [
            'files.id',
            files.val(entry.scope).as('scope'),
            files.val(entry.identifier).as('identifier'),
            files.val(version).as('position'),
            'files.project_id',
            'files.created_at',
            // When it was shared: "shared with me" lists newest first (issue 36).
            files.val(now.getTime()).as('shared_at'),
          ])
          .where('files.id', '=', id),
      )
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
  });
}

/** FileRepository.removeAclEntry: an unshare, which also revokes the links the entry let its users obtain. */
export function removeAclEntry(
  db: Kysely<DatabaseSchema>,
  id: string,
  entry: AclEntry,
  now: Date,
  event?: NewEvent,
): Promise<FileRecord | undefined> {
  return changeAcl(db, { id, now, event }, async (trx) => {
    const deleted = await trx
      .deleteFrom('file_acl')
      .where('file_id', '=', id)
      .where('scope', '=', entry.scope)
      .where('identifier', '=', entry.identifier)
      .executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return false;
    // In the same transaction: the links the entry let its users obtain stop as it goes.
    await trx
      .updateTable('files')
      .set((eb) => ({ links_generation: eb('links_generation', '+', 1) }))
      .where('id', '=', id)
      .execute();
    return true;
  });
}

/**
 * One ACL change in one transaction. The version bump comes first: it locks the file row
 * (PostgreSQL) or holds the write lock (SQLite), so concurrent changes of one file queue up,
 * and the version it returns is this change's own, which becomes the new entry's position.
 * When the change turns out to be a no-op, the rollback undoes the bump: nothing changes, and
 * no event is recorded.
 */
function changeAcl(
  db: Kysely<DatabaseSchema>,
  { id, now, event }: { id: string; now: Date; event?: NewEvent },
  change: (trx: Kysely<DatabaseSchema>, version: number) => Promise<boolean>,
): Promise<FileRecord | undefined> {
  return writeTransaction(db, async (trx) => {
    const bumped = await trx
      .updateTable('files')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: now.getTime() }))
      .where('id', '=', id)
      .returning('version')
      .executeTakeFirst();
    if (bumped === undefined) return undefined;
    if (await change(trx, bumped.version)) {
      // The event is written only for a change that happened, in its transaction.
      await insertEvents(trx, [event]);
      return findFileById(trx, id);
    }
    await trx.rollback().execute();
    return findFileById(db, id);
  });
}
