import {
  type CofferClient,
  CofferError,
  type FileRecord,
  type FolderEntry,
  type FolderPage,
} from '../../packages/client/src/index.ts';
import { formatBytes } from '../domain/format-bytes.ts';

/** A folder as the tree shows it: the top one has no name or time of its own in the API. */
type TreeFolder = Pick<FolderEntry, 'path' | 'fileCount' | 'totalBytes'> & Partial<FolderEntry>;

/** A folder, a file, or the note that a folder (named) has more subfolders than its page lists. */
type TreeItem = { folder: TreeFolder } | { file: FileRecord } | { foldersTruncated: string };

/** One line of `coffer files ls <folder>/`, with the drawing (`│   ├── `) before its name. */
export type TreeLine = { drawing: string } & TreeItem;

/** Whose folder, and how many direct files a call asks for. */
type WalkOptions = { owner?: string; pageSize: number };

/** Direct files a page by default: the API's most, so a folder costs as few calls as it can. */
const filesPerPage = 1000;

/**
 * A folder's tree, line by line as the pages arrive (GET /api/v1/folders per folder): the
 * folder, then each subfolder (its subtree below it) and each direct file. The sizes are the
 * server's subtree counts, never added up here.
 */
export async function* walkFolderTree(
  client: CofferClient,
  path: string,
  options: { owner?: string; pageSize?: number },
): AsyncGenerator<TreeLine> {
  const walk = { owner: options.owner, pageSize: options.pageSize ?? filesPerPage };
  const page = await client.folders.list(path, walk);
  yield { drawing: '', folder: { path: page.path, fileCount: page.fileCount, totalBytes: page.totalBytes } };
  yield* walkChildren(client, page, '', walk);
}

async function* walkChildren(
  client: CofferClient,
  page: FolderPage,
  indent: string,
  options: WalkOptions,
): AsyncGenerator<TreeLine> {
  for await (const [child, isLast] of withLast(childrenOf(client, page, options))) {
    yield { ...child, drawing: indent + (isLast ? '└── ' : '├── ') };
    if (!('folder' in child)) continue;
    const subfolder = await listIfPresent(client, child.folder.path, options);
    // A subfolder moved or deleted since its parent's page has nothing left to show.
    if (subfolder) yield* walkChildren(client, subfolder, indent + (isLast ? '    ' : '│   '), options);
  }
}

/** A folder's children in the API's order: its subfolders (first page only), then every direct file. */
async function* childrenOf(
  client: CofferClient,
  page: FolderPage,
  options: WalkOptions,
): AsyncGenerator<TreeItem> {
  for (const folder of page.folders) yield { folder };
  if (page.foldersTruncated) yield { foldersTruncated: page.path };
  for (let current = page; ; ) {
    for (const file of current.files) yield { file };
    if (!current.nextCursor) return;
    current = await client.folders.list(page.path, { ...options, cursor: current.nextCursor });
  }
}

async function listIfPresent(client: CofferClient, path: string, options: WalkOptions) {
  try {
    return await client.folders.list(path, options);
  } catch (error) {
    if (error instanceof CofferError && error.code === 'FOLDER_NOT_FOUND') return undefined;
    throw error;
  }
}

/** Each item with whether it is the last (one item of look-ahead: the drawing needs it). */
async function* withLast<T>(items: AsyncIterable<T>): AsyncGenerator<[T, boolean]> {
  const iterator = items[Symbol.asyncIterator]();
  let current = await iterator.next();
  while (!current.done) {
    const next = await iterator.next();
    yield [current.value, next.done === true];
    current = next;
  }
}

/** A line as a person reads it: the size, then the drawing and the name. */
export function toTreeText(line: TreeLine): string {
  if ('foldersTruncated' in line)
    return `${''.padStart(10)}  ${line.drawing}… more subfolders than a page lists`;
  if ('file' in line) {
    const length = line.file.meta.ContentLength;
    const size = length === undefined ? 'unverified' : formatBytes(Number(length));
    const name = line.file.filePath.slice(line.file.filePath.lastIndexOf('/') + 1);
    return `${size.padStart(10)}  ${line.drawing}${name}`;
  }
  const { path, fileCount, totalBytes } = line.folder;
  const name = line.drawing === '' ? path || '/' : `${line.folder.name}/`;
  const files = `${fileCount} ${fileCount === 1 ? 'file' : 'files'}`;
  return `${formatBytes(totalBytes).padStart(10)}  ${line.drawing}${name}  (${files})`;
}

/** A line for scripts (`--json`): the folder, the file record, or the folder whose subfolders were cut. */
export function toTreeJson({ drawing: _, ...line }: TreeLine): string {
  return JSON.stringify(line);
}
