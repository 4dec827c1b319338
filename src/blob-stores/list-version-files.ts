import type { Dirent } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredObject } from '../domain/blobs/blob-sweeper.ts';
import { toStoredName } from './blob-key.ts';

/**
 * Every version file (`<projectId>/<fileId>.<version>.blob`) under `rootDir`, a page at a
 * time. Directories are streamed (opendir), so millions of files are never held in memory at
 * once; anything else (.tmp, files of another format) is not listed.
 */
export async function* listVersionFiles(
  rootDir: string,
  options: { pageSize: number; signal?: AbortSignal },
): AsyncGenerator<StoredObject[]> {
  let page: StoredObject[] = [];
  for await (const project of await openDirIfExists(rootDir)) {
    if (!project.isDirectory()) continue;
    for await (const entry of await openDirIfExists(join(rootDir, project.name))) {
      options.signal?.throwIfAborted();
      if (!entry.isFile() || !entry.name.endsWith('.blob')) continue;
      const stored = toStoredName(`${project.name}/${entry.name.slice(0, -'.blob'.length)}`);
      if (!stored?.version) continue;
      // Removed since the directory was read: nothing to report.
      const info = await stat(join(rootDir, project.name, entry.name)).catch(() => undefined);
      if (!info) continue;
      page.push({ ...stored, sizeBytes: info.size, lastModified: info.mtime });
      if (page.length >= options.pageSize) {
        yield page;
        page = [];
      }
    }
  }
  if (page.length > 0) yield page;
}

async function openDirIfExists(dir: string): Promise<AsyncIterable<Dirent> | Iterable<Dirent>> {
  try {
    return await opendir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
