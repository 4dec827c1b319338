import { open, opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempFileOwnerAlive, newTempName, toTempFileOwner } from './temp-file-owner.ts';

/**
 * A fresh, unused path inside `tmpDir` (temp files live there so a crash leaves no half-written
 * key), named after this process so that sweepers know whether its writer is still alive.
 */
export function toTempPath(tmpDir: string): string {
  return join(tmpDir, newTempName());
}

/**
 * Makes a rename or unlink in `dir` durable. Without it a power loss after rename() may bring
 * back the old directory entry even though the new file's bytes were synced.
 */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type TempFile = { name: string; sizeBytes: number; lastModified: Date };

/**
 * The temp files in `dir` that nobody will finish, page by page (the directory is streamed,
 * never read whole): those whose writer is certainly gone (toTempFileOwner), and, as a
 * backstop for names without an owner or owners that cannot be asked, those last written
 * before `staleBefore`.
 */
export async function* listAbandonedTempFiles(
  dir: string,
  options: { staleBefore: Date; pageSize: number },
): AsyncGenerator<TempFile[]> {
  let page: TempFile[] = [];
  for await (const entry of await opendir(dir)) {
    if (!entry.isFile()) continue;
    // Another process may finish or remove its temp file meanwhile.
    const info = await stat(join(dir, entry.name)).catch(() => undefined);
    if (!info) continue;
    const owner = toTempFileOwner(entry.name);
    const abandoned =
      info.mtime < options.staleBefore || (owner !== undefined && !(await isTempFileOwnerAlive(owner)));
    if (!abandoned) continue;
    page.push({ name: entry.name, sizeBytes: info.size, lastModified: info.mtime });
    if (page.length >= options.pageSize) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}
