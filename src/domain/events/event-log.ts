import type { EventType, NewEvent, StoredEvent } from './event.ts';

/** What the audit log can be asked (GET /api/v1/audit, `coffer audit`). */
export type EventSearch = {
  projectId: string;
  types?: readonly EventType[];
  actorId?: string;
  fileId?: string;
  /** Inclusive lower and exclusive upper bound of occurredAt. */
  from?: Date;
  to?: Date;
  /** Newest first: only events before this seq (the cursor of the page before). */
  beforeSeq?: number;
  limit: number;
};

/** The event log as readers see it: committed events only, in commit order per file. */
export interface EventLog {
  /** The audit log: newest first, a page at a time, each filter an index range. */
  search(query: EventSearch): Promise<StoredEvent[]>;
  /**
   * The live stream: the project's committed events after `afterSeq`, oldest first, at most
   * `limit`. On PostgreSQL only rows of transactions older than every one still running are
   * read, so a late commit with a smaller seq is never passed by.
   */
  readAfter(projectId: string, afterSeq: number, limit: number): Promise<StoredEvent[]>;
  /** An event by id (a stream's Last-Event-ID); undefined once it has passed the retention. */
  findById(projectId: string, eventId: string): Promise<StoredEvent | undefined>;
  /** The seq a stream starts after: everything committed so far is history, not news. */
  findLatestSeq(projectId: string): Promise<number>;
  /** An event that records no change of its own (a failed login): written alone. */
  record(event: NewEvent): Promise<void>;
}
