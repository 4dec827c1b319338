import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { DatabaseSchema } from '../../database-schema.ts';

/**
 * Writes events in the caller's transaction (issue 22): call it last, after the change it
 * records, so that for one file the seq order is the commit order (a second change of the file
 * waits for the first's row lock before it gets here).
 */
export async function insertEvents(
  trx: Kysely<DatabaseSchema>,
  events: readonly (NewEvent | undefined)[],
): Promise<void> {
  const rows = events.flatMap((event) => (event ? [toEventRow(event)] : []));
  if (rows.length > 0) await trx.insertInto('events').values(rows).execute();
}

export function toEventRow(event: NewEvent) {
  return {
    id: event.id,
    project_id: event.projectId,
    type: event.type,
    occurred_at: event.occurredAt.getTime(),
    actor_kind: event.actor.kind,
    actor_id: event.actor.id,
    actor_ip: event.actor.ip,
    actor_user_agent: event.actor.userAgent,
    file_id: event.fileId,
    data: JSON.stringify(event.data),
  };
}
