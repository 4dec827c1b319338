import { canAccessFile, type Principal } from '../access/decide-file-access.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { FileRepository } from '../files/file-repository.ts';
import type { StoredEvent } from './event.ts';

/** The files a batch of events is about, as they are now; undefined for those that are gone. */
export type FilesNow = ReadonlyMap<string, FileRecord | undefined>;

/** A batch of the log and its files, shared by every subscription it is handed to. */
export type StreamBatch = { events: readonly StoredEvent[]; filesNow: FilesNow };

/** One findById per distinct file of the batch, whatever the number of subscribers. */
export async function findFilesNow(
  files: Pick<FileRepository, 'findById'>,
  events: readonly StoredEvent[],
): Promise<FilesNow> {
  const ids = [...new Set(events.flatMap((event) => (event.fileId === null ? [] : [event.fileId])))];
  const found = await Promise.all(ids.map((id) => files.findById(id)));
  return new Map(ids.map((id, index) => [id, found[index]]));
}

/**
 * Whether the stream may hand this event to `principal` now: file events only, by the rule of
 * GET /api/v1/file/:id applied to the file as it is at sending, so a reader unshared since gets
 * nothing more of it. A file that is gone (file.deleted, upload.expired) has no ACL left to
 * ask: its events go to its creator and the project's admins, who could read it whatever its
 * ACL said, and to nobody else (a reader it was shared with is not told).
 */
export function isEventReadable(principal: Principal, event: StoredEvent, filesNow: FilesNow): boolean {
  if (event.fileId === null || event.projectId !== principal.projectId) return false;
  const file = filesNow.get(event.fileId);
  if (file) return canAccessFile({ principal, file, action: 'read' });
  return principal.isAdmin || event.data.creator === principal.userId;
}
