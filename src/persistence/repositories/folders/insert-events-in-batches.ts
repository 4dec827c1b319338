import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';

/**
 * Ten values a row: 500 rows stay far below the bound parameters one statement may carry
 * (32,766 on SQLite, 65,535 on PostgreSQL), for a folder of any size.
 */
const eventsPerStatement = 500;

/** insertEvents for the thousands of events of one folder change, in its transaction. */
export async function insertEventsInBatches(
  trx: Kysely<DatabaseSchema>,
  events: readonly NewEvent[],
): Promise<void> {
  for (let start = 0; start < events.length; start += eventsPerStatement)
    await insertEvents(trx, events.slice(start, start + eventsPerStatement));
}
