import type { FileRecord } from '../../domain/files/file-record.ts';
import type { Services } from '../../services.ts';
import { toFileView } from '../wire/to-wire.ts';

/** Accounts named on one page at most: a file shared with thousands shows the rest by id. */
const maxPeople = 500;

/**
 * The email of each account of the project among `ids` (the first 500), by id: what the console
 * shows for people. An account gone since (deleted) is left out and shows by its id.
 */
export async function emailsOf(services: Services, projectId: string, ids: Iterable<string>) {
  const emails = new Map<string, string>();
  for (const id of [...new Set(ids)].slice(0, maxPeople)) {
    const user = await services.repositories.users.findById(projectId, id);
    if (user) emails.set(id, user.email);
  }
  return emails;
}

/**
 * Files as the console shows them: the API's view plus `people`, the email of each account the
 * record names (its owner and the users on its access list), so that people see people, not ids.
 */
export async function toFileViewsWithPeople(services: Services, projectId: string, files: FileRecord[]) {
  const ids = files.flatMap((file) => [
    file.creatorId,
    ...file.acl.filter((entry) => entry.scope === 'user').map((entry) => entry.identifier),
  ]);
  const emails = await emailsOf(services, projectId, ids);
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
