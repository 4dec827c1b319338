import type { Principal } from '../access/decide-file-access.ts';
import type { FileRecord } from '../files/file-record.ts';
import { isServiceKeyPrincipal, serviceKeyPrincipalPrefix } from '../identity/service-keys.ts';
import type { Actor, EventData, EventType, NewEvent } from './event.ts';
import { newEventId } from './event-id.ts';

const operatorPrefix = 'operator:';

/** The actor of a principal: an operator in the console, a service key, or a user of the project. */
export function toActor(principal: Principal): Actor {
  const [kind, prefix] = principal.userId.startsWith(operatorPrefix)
    ? (['operator', operatorPrefix] as const)
    : isServiceKeyPrincipal(principal)
      ? (['service-key', serviceKeyPrincipalPrefix] as const)
      : (['user', ''] as const);
  return {
    kind,
    id: principal.userId.slice(prefix.length),
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
