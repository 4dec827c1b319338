import { type Kysely, sql } from 'kysely';
import type { NewEvent, StoredEvent } from '../../domain/events/event.ts';
import type { EventLog, EventSearch } from '../../domain/events/event-log.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { isSqlite } from '../is-sqlite.ts';
import { toStoredEvent } from './events/event-rows.ts';
import { insertEvents } from './events/insert-events.ts';

/** The event log (migrations/events.ts), read by the audit log and the live stream. */
export class KyselyEventLog implements EventLog {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #sqlite: boolean;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
    this.#sqlite = isSqlite(db);
  }

  async search(query: EventSearch): Promise<StoredEvent[]> {
    let select = this.#db
      .selectFrom('events')
      .selectAll()
      .where('project_id', '=', query.projectId)
      .orderBy('seq', 'desc')
      .limit(query.limit);
    if (query.types && query.types.length > 0) select = select.where('type', 'in', [...query.types]);
    if (query.actorId !== undefined) select = select.where('actor_id', '=', query.actorId);
    if (query.fileId !== undefined) select = select.where('file_id', '=', query.fileId);
    if (query.from) select = select.where('occurred_at', '>=', query.from.getTime());
    if (query.to) select = select.where('occurred_at', '<', query.to.getTime());
    if (query.beforeSeq !== undefined) select = select.where('seq', '<', query.beforeSeq);
    return (await select.execute()).map(toStoredEvent);
  }

  async readAfter(projectId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    let select = this.#db
      .selectFrom('events')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit);
    // See migrations/events.ts: a row is read once every transaction before it has ended.
    if (!this.#sqlite) select = select.where(sql<boolean>`tx_id < pg_snapshot_xmin(pg_current_snapshot())`);
    return (await select.execute()).map(toStoredEvent);
  }

  async findById(projectId: string, eventId: string): Promise<StoredEvent | undefined> {
    const row = await this.#db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', eventId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return row && toStoredEvent(row);
  }

  async record(event: NewEvent): Promise<void> {
    await insertEvents(this.#db, [event]);
  }

  async findLatestSeq(projectId: string): Promise<number> {
    const row = await this.#db
      .selectFrom('events')
      .select('seq')
      .where('project_id', '=', projectId)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row.seq) : 0;
  }
}
