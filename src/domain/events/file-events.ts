import type { Principal } from '../access/decide-file-access.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { Actor, EventData, EventType, NewEvent } from './event.ts';
import { newEventId } from './event-id.ts';

/** The actor of a principal: an operator acting in the console, or a user of the project. */
export function toActor(principal: Principal): Actor {
  const operatorPrefix = 'operator:';
  const isOperator = principal.userId.startsWith(operatorPrefix);
  return {
    kind: isOperator ? 'operator' : 'user',
    id: isOperator ? principal.userId.slice(operatorPrefix.length) : principal.userId,
    ip: principal.client?.ip ?? null,
    userAgent: principal.client?.userAgent ?? null,
  };
}

/**
 * An event about a file: its id, path and creator, and what the change adds. Thin on purpose:
 * a receiver that wants more reads the file with its own credentials.
 */
export function toFileEvent(
  type: EventType,
  by: Principal | Actor,
  file: Pick<FileRecord, 'id' | 'projectId' | 'filePath' | 'creatorId'>,
  at: Date,
  data: EventData = {},
): NewEvent {
  return {
    id: newEventId(at),
    type,
    occurredAt: at,
    projectId: file.projectId,
    actor: 'kind' in by ? by : toActor(by),
    fileId: file.id,
    data: { fileId: file.id, filePath: file.filePath, creator: file.creatorId, ...data },
  };
}
