import type { CofferClient, TrashItem } from '../../packages/client/src/index.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import type { Command } from './command.ts';
import { withSession } from './files-commands.ts';

/**
 * `coffer files trash` (--empty) and `files purge` (issue 38, item 3): the user's trash, as its
 * user; an admin names another user's with --owner. `files restore` (version-commands.ts)
 * puts a trashed file back.
 */
export const trashCommands: Record<string, Command> = {
  'files trash': {
    summary:
      "Your deleted files, most recently deleted first, every page (--owner: another user's, for admins); --empty purges them all.",
    flags: ['empty', 'owner', 'json'],
    run: async (_config, values) => {
      const owner = values.owner;
      if (values.empty) {
        const purged = await withSession(process.env, (client) => client.emptyTrash({ owner }));
        return {
          json: { purged },
          text: `Purged ${purged} ${purged === 1 ? 'file' : 'files'} from the trash`,
        };
      }
      await withSession(process.env, (client) => printTrash(client, { owner, json: values.json === true }));
      return undefined; // printed line by line
    },
  },
  'files purge': {
    summary: 'Remove a file from the trash for good, its bytes with it (coffer files trash lists them).',
    flags: ['json'],
    args: ['<fileId>'],
    run: async (_config, _values, [fileId]) => {
      await withSession(process.env, (client) => client.purge(fileId!));
      return { json: { purged: fileId }, text: `Purged ${fileId}` };
    },
  },
};

/** `files restore <fileId> [--path p]` without --version-id: the trashed file back, at its path or `path`. */
export async function restoreFromTrash(fileId: string, filePath: string | undefined) {
  const file = await withSession(process.env, (client) => client.restore(fileId, { filePath }));
  return { json: file, text: `Restored ${file._id} at ${file.filePath}` };
}

/** One trashed file a line (--json: one item of GET /api/v1/trash a line), every page. */
async function printTrash(client: CofferClient, options: { owner?: string; json: boolean }): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await client.trash({ owner: options.owner, pageSize: trashPerPage, cursor });
    for (const item of page.items) console.log(options.json ? JSON.stringify(item) : toTrashLine(item));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** The API's most: a long trash costs as few calls as it can. */
const trashPerPage = 100;

/** `<fileId>  12 KB  notes/a.txt  deleted 2026-…, kept until 2026-…` (then the retention sweep purges it). */
function toTrashLine(item: TrashItem): string {
  const size = formatBytes(Number(item.meta.ContentLength ?? 0)).padStart(10);
  return `${item._id}  ${size}  ${item.filePath}  deleted ${item.trashedAt}, kept until ${item.purgeAt}`;
}
