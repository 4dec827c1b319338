import type { ClientInfo } from '../access/decide-file-access.ts';
import type { Actor, EventData, EventType, NewEvent } from './event.ts';
import { newEventId } from './event-id.ts';

/** An operator: in the console (their id and address), or `coffer` on the host (no id). */
export function operatorActor(operatorId: string | null, client?: ClientInfo): Actor {
  return { kind: 'operator', id: operatorId, ip: client?.ip ?? null, userAgent: client?.userAgent ?? null };
}

/** A user of the project (or, for a failed login of an unknown email, nobody known). */
export function userActor(userId: string | null, client?: ClientInfo): Actor {
  return { kind: 'user', id: userId, ip: client?.ip ?? null, userAgent: client?.userAgent ?? null };
}

/** An event about an account: its id and role, and what the change adds. Never a password or a token. */
export function toUserEvent(
  type: EventType,
  by: Actor,
  user: { id: string | null; projectId: string; role?: string },
  at: Date,
  data: EventData = {},
): NewEvent {
  return {
    id: newEventId(at),
    type,
    occurredAt: at,
    projectId: user.projectId,
    actor: by,
    fileId: null,
    data: { userId: user.id, ...(user.role !== undefined && { role: user.role }), ...data },
  };
}
