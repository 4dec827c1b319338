import type { Workload } from '../seed/workload.ts';

/** Direct files of each leaf folder of a seeded tree. */
export const filesPerFolder = 1000;

/**
 * The i-th file of a seeded tree: leaf folders of 1,000 files, three deep, ten to a folder
 * (`photos/00/04/07/0123.jpg`), so a tree of 400,000 files has 400 leaves under 4 + 40
 * folders. Zero-padded, so paths grow with i (the seeders insert in key order).
 */
export function treePathOf(i: number): string {
  const leaf = Math.floor(i / filesPerFolder);
  const two = (n: number) => String(n).padStart(2, '0');
  const folder = `photos/${two(Math.floor(leaf / 100))}/${two(Math.floor(leaf / 10) % 10)}/${two(leaf % 10)}`;
  return `${folder}/${String(i % filesPerFolder).padStart(4, '0')}.jpg`;
}

export type FolderPage = {
  fileCount: number;
  folders: Array<{ path: string; fileCount: number }>;
  files: Array<{ _id: string; filePath: string }>;
  nextCursor: string | null;
};

/** One page of the caller's folder through the API, which must answer 200. */
export async function browseFolder(
  workload: Workload,
  folder: string,
  query: { pageSize?: number; cursor?: string } = {},
): Promise<FolderPage> {
  const params = new URLSearchParams({ path: folder });
  if (query.pageSize) params.set('pageSize', String(query.pageSize));
  if (query.cursor) params.set('cursor', query.cursor);
  const url = `${workload.server.url}/api/v1/folders?${params}`;
  // A GET may be sent again: on a loaded machine a kept-alive socket can be closed by the
  // server (its 5 s idle timeout) just as the next request goes out on it ("other side closed").
  const response = await fetch(url, { headers: workload.headers }).catch((error: Error) => {
    if ((error.cause as { code?: string } | undefined)?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, { headers: workload.headers });
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /api/v1/folders?${params}: ${response.status} ${text}`);
  return JSON.parse(text) as FolderPage;
}

/** Every direct file of the caller's folder, page by page. */
export async function listFolderFiles(workload: Workload, folder: string): Promise<FolderPage['files']> {
  const files: FolderPage['files'] = [];
  let cursor: string | undefined;
  do {
    const page = await browseFolder(workload, folder, { pageSize: 1000, cursor });
    files.push(...page.files);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return files;
}
