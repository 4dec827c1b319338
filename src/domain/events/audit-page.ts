import { validationFailed } from '../../errors/errors.ts';
import { toAuditTypes, toInstant } from './audit-filters.ts';
import { type ActorPerson, type AuditPeople, findPeople, type SubjectPerson } from './audit-people.ts';
import type { Actor, EventType, StoredEvent } from './event.ts';
import type { EventLog } from './event-log.ts';

/** Events per page of the audit log: the default and the most a `pageSize` may ask. */
export const auditPageSize = 100;

/**
 * The audit log's filters as a query string or a command line gives them: text, checked here
 * so the API, the console and `coffer audit` refuse the same mistakes with the same words.
 */
export type AuditFilters = {
  /** Event types or `<group>.*`, repeated or comma-separated. */
  type?: string | readonly string[];
  actor?: string;
  fileId?: string;
  /** ISO 8601: from (inclusive) and to (exclusive). */
  from?: string;
  to?: string;
  /** The nextCursor of the page before. */
  cursor?: string;
  /** 1…100 events a page (default 100), as text like the file listing's. */
  pageSize?: string;
};

/** An event as the audit log shows it: the actor's address and user agent included. */
export type AuditEntry = {
  id: string;
  type: EventType;
  timestamp: string;
  project: string;
  actor: Actor & ActorPerson;
  fileId: string | null;
  data: Record<string, unknown>;
  /** The user the event is about (data.userId), with their email; null for other events. */
  subject: SubjectPerson;
};

/** Where a page is read: the event log, and the people it names (one batched read a page). */
export type AuditSources = { events: EventLog; auditPeople: AuditPeople };

export type AuditPage = { events: AuditEntry[]; nextCursor: string | null };

/** A page of the project's audit log, newest first; nextCursor is null on the last page. */
export async function listAuditPage(
  sources: AuditSources,
  projectId: string,
  filters: AuditFilters,
): Promise<AuditPage> {
  const from = toInstant(filters.from, 'from');
  const to = toInstant(filters.to, 'to');
  if (from && to && from >= to) throw validationFailed('from must be before to');
  const types = toAuditTypes(filters.type);
  const pageSize = toAuditPageSize(filters.pageSize);
  // One more than a page: its presence says whether an older page exists, with no empty last page.
  const found = await sources.events.search({
    projectId,
    ...(types && { types }),
    // An empty field filters nothing, as an empty form field means.
    ...(filters.actor && { actorId: filters.actor }),
    ...(filters.fileId && { fileId: filters.fileId }),
    ...(from && { from }),
    ...(to && { to }),
    ...(filters.cursor && { beforeSeq: fromAuditCursor(filters.cursor) }),
    limit: pageSize + 1,
  });
  const events = found.slice(0, pageSize);
  const nextCursor = found.length > pageSize ? toAuditCursor(events.at(-1)!) : null;
  const people = await findPeople(sources.auditPeople, projectId, events);
  return { events: events.map((event, at) => toAuditEntry(event, people[at]!)), nextCursor };
}

function toAuditPageSize(text: string | undefined): number {
  if (text === undefined || text === '') return auditPageSize;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > auditPageSize)
    throw validationFailed(`pageSize must be a whole number from 1 to ${auditPageSize}`);
  return Number(text);
}

function toAuditEntry(
  event: StoredEvent,
  people: { actor: ActorPerson; subject: SubjectPerson },
): AuditEntry {
  return {
    id: event.id,
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    project: event.projectId,
    // The stored fields first and unchanged; the people beside them.
    actor: { ...event.actor, ...people.actor },
    fileId: event.fileId,
    data: { ...event.data },
    subject: people.subject,
  };
}

/** The cursor after an event: its seq, opaque to callers (they only hand it back). */
function toAuditCursor(event: StoredEvent): string {
  return Buffer.from(`seq:${event.seq}`).toString('base64url');
}

function fromAuditCursor(cursor: string): number {
  const match = /^seq:([1-9][0-9]{0,14})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match || cursor.length > 32)
    throw validationFailed('cursor is not a nextCursor this audit log answered');
  return Number(match[1]);
}
