import type { CofferClient } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import { toTreeJson, toTreeText, walkFolderTree } from './folder-tree.ts';

// The folder forms of `coffer files ls|mv|rm` (issue 36): a `/`-ended argument names a folder,
// and mv and rm change one only with -r, as a shell's do with a directory.

/** A folder argument as the API takes it: a missing closing `/` is added (users name folders without it). */
export function toFolderArgument(text: string): string {
  return text.endsWith('/') ? text : `${text}/`;
}

/** A file argument of mv or rm that names a folder is refused without -r (nothing is touched). */
export function assertNotFolder(text: string, command: string): void {
  if (text.endsWith('/'))
    throw new ConfigError(`${text} is a folder: coffer files ${command} -r changes a whole folder`);
}

/** `coffer files ls <folder>/` (`/`: the root): its tree with sizes, printed line by line as the pages arrive. */
export async function printFolderTree(
  client: CofferClient,
  path: string,
  options: { owner?: string; json: boolean },
): Promise<void> {
  const folder = path === '/' ? '' : toFolderArgument(path);
  for await (const line of walkFolderTree(client, folder, { owner: options.owner }))
    console.log(options.json ? toTreeJson(line) : toTreeText(line));
}

/** `coffer files mv -r <from>/ <to>/`: one transaction, all or nothing. */
export async function moveFolder(client: CofferClient, input: { from: string; to: string; owner?: string }) {
  const from = toFolderArgument(input.from);
  const to = toFolderArgument(input.to);
  const { moved } = await client.folders.move(from, to, { owner: input.owner });
  return { json: { from, to, moved }, text: `Moved ${from} to ${to} (${moved} ${files(moved)})` };
}

/** `coffer files rm -r <folder>/...`: each folder in its own transaction, in order; the first failure stops. */
export async function deleteFolders(client: CofferClient, input: { paths: string[]; owner?: string }) {
  const folders: { path: string; deleted: number; bytes: number }[] = [];
  for (const argument of input.paths) {
    const path = toFolderArgument(argument);
    folders.push({ path, ...(await client.folders.delete(path, { owner: input.owner })) });
  }
  const lines = folders.map(
    ({ path, deleted, bytes }) => `Deleted ${path} (${deleted} ${files(deleted)}, ${formatBytes(bytes)})`,
  );
  return { json: { folders }, text: lines.join('\n') };
}

const files = (count: number) => (count === 1 ? 'file' : 'files');
