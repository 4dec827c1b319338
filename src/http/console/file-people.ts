import type { FileRecord } from '../../domain/files/file-record.ts';
import type { Services } from '../../services.ts';
import { toFileView } from '../wire/to-wire.ts';

/** Accounts named on one page at most: a file shared with thousands shows the rest by id. */
const maxPeople = 500;

/**
 * Files as the console shows them: the API's view plus `people`, the email of each account the
 * record names (its owner and the users on its access list), so that people see people, not ids.
 * An account gone since (deleted) is left out and shows by its id.
 */
export async function toFileViewsWithPeople(services: Services, projectId: string, files: FileRecord[]) {
  const ids = new Set<string>();
  for (const file of files) {
    ids.add(file.creatorId);
    for (const entry of file.acl) if (entry.scope === 'user') ids.add(entry.identifier);
  }
  const emails = new Map<string, string>();
  for (const id of [...ids].slice(0, maxPeople)) {
    const user = await services.repositories.users.findById(projectId, id);
    if (user) emails.set(id, user.email);
  }
  return files.map((file) => {
    const named = [file.creatorId, ...file.acl.filter((e) => e.scope === 'user').map((e) => e.identifier)];
    const people = Object.fromEntries(named.flatMap((id) => (emails.has(id) ? [[id, emails.get(id)!]] : [])));
    return { ...toFileView(file), people };
  });
}

/** One file as the console shows it (toFileViewsWithPeople). */
export async function toFileViewWithPeople(services: Services, projectId: string, file: FileRecord) {
  const [view] = await toFileViewsWithPeople(services, projectId, [file]);
  return view!;
}
