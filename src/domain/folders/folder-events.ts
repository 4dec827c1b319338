import type { Principal } from '../access/decide-file-access.ts';
import type { EventData, EventType, NewEvent } from '../events/event.ts';
import { newEventId } from '../events/event-id.ts';
import { toActor } from '../events/file-events.ts';

/**
 * An event about a whole folder (folder.moved, folder.deleted): no fileId (each file has its own
 * file.* event in the same transaction), the owner and what the change did.
 */
export function toFolderEvent(
  type: EventType,
  by: Principal,
  folder: { projectId: string; ownerId: string },
  at: Date,
  data: EventData,
): NewEvent {
  return {
    id: newEventId(at),
    type,
    occurredAt: at,
    projectId: folder.projectId,
    actor: toActor(by),
    fileId: null,
    data: { owner: folder.ownerId, ...data },
  };
}
