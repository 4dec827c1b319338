import type { CofferClient, FolderShares, SharedItem, ShareWith } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import { toFolderArgument } from './folder-commands.ts';

// `coffer files share|unshare|shares` and `coffer shared` (issue 36): a `/`-ended argument
// names a folder (`/` alone the caller's root), anything else a file id, as for ls, mv and rm.

/** Who a share names: exactly one of --user, --role and --email. */
export function toShareWith(values: { user?: string; role?: string; email?: string }): ShareWith {
  const named = [values.user, values.role, values.email].filter((value) => value !== undefined);
  if (named.length > 1) throw new ConfigError('--user, --role and --email exclude each other');
  if (values.user !== undefined) return { userId: values.user };
  if (values.role !== undefined) return { role: values.role };
  if (values.email !== undefined) return { email: values.email };
  throw new ConfigError('--user <userId>, --role <role> or --email <email> is required');
}

/** Whether an argument names a folder (`/`-ended) rather than a file id. */
export const isFolderArgument = (text: string) => text.endsWith('/');

/** A folder argument as the share calls take it: `/` alone is the root (''). */
export const toSharedFolder = (text: string) => (text === '/' ? '' : toFolderArgument(text));

/** `coffer files share|unshare <folder/>`: answers the shares reaching the folder after the change. */
export async function changeFolderShare(
  client: CofferClient,
  input: { action: 'share' | 'unshare'; path: string; with: ShareWith; owner?: string },
) {
  const path = toSharedFolder(input.path);
  const shares = await client.folders[input.action](path, input.with, { owner: input.owner });
  const done = input.action === 'share' ? 'Shared' : 'Unshared';
  return {
    json: shares,
    text: `${done} ${toFolderName(path)} (${toGranteeText(input.with)})\n${toSharesText(shares)}`,
  };
}

/** `coffer files shares <folder/>`: the folder's own shares and its ancestors', the root first. */
export async function listFolderShares(client: CofferClient, input: { path: string; owner?: string }) {
  const shares = await client.folders.shares(toSharedFolder(input.path), { owner: input.owner });
  return { json: shares, text: toSharesText(shares) };
}

/** `coffer shared`: every page of what others shared with the caller, newest first, printed as each page arrives. */
export async function printSharedWithMe(client: CofferClient, options: { json: boolean }): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await client.shared({ pageSize: sharesPerPage, cursor });
    for (const item of page.items) console.log(options.json ? JSON.stringify(item) : toSharedLine(item));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** The API's most: a long list costs as few calls as it can. */
const sharesPerPage = 100;

/** One share a line: the grantee, the folder it is on (this one or an ancestor), since when. */
function toSharesText({ path, shares }: FolderShares): string {
  if (shares.length === 0) return `${toFolderName(path)} is shared with nobody`;
  return shares
    .map(
      (share) =>
        `${share.scope}:${share.identifier}  on ${toFolderName(share.path)}  since ${share.sharedAt}`,
    )
    .join('\n');
}

/** `2026-01-02T…  role      10 B  trips/  (4 files, of <ownerId>)`; a file names its id. */
function toSharedLine(item: SharedItem): string {
  const head = `${item.sharedAt}  ${item.scope.padEnd(4)}`;
  if (item.kind === 'folder') {
    const count = `${item.fileCount} ${item.fileCount === 1 ? 'file' : 'files'}`;
    const size = formatBytes(item.totalBytes).padStart(10);
    return `${head}  ${size}  ${toFolderName(item.path)}  (${count}, of ${item.owner})`;
  }
  const length = item.file.meta.ContentLength;
  const size = (length === undefined ? 'unverified' : formatBytes(Number(length))).padStart(10);
  return `${head}  ${size}  ${item.file.filePath}  (file ${item.file._id}, of ${item.file.creator})`;
}

const toFolderName = (path: string) => path || '/';

export function toGranteeText(with_: ShareWith): string {
  if ('userId' in with_) return `user:${with_.userId}`;
  return 'role' in with_ ? `role:${with_.role}` : `email:${with_.email}`;
}
