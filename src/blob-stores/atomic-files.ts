import { randomUUID } from 'node:crypto';
import { open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A fresh, unused path inside `tmpDir` (temp files live there so a crash leaves no half-written key). */
export function toTempPath(tmpDir: string): string {
  return join(tmpDir, `${randomUUID()}.tmp`);
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

/** Writes `data` to a temp file, fsyncs it and renames it over `path`: readers see all or nothing. */
export async function writeFileAtomic(options: {
  path: string;
  data: string;
  tmpDir: string;
}): Promise<void> {
  const tmpPath = toTempPath(options.tmpDir);
  try {
    await writeFile(tmpPath, options.data, { flag: 'wx', flush: true });
    await rename(tmpPath, options.path);
  } catch (error) {
    await rm(tmpPath, { force: true });
    throw error;
  }
  await syncDirectory(dirname(options.path));
}

/** Removes files in `dir` last modified before `olderThan` (temp files of crashed writers). */
export async function removeFilesOlderThan(dir: string, olderThan: Date): Promise<void> {
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    // Another process may finish or remove its temp file between readdir and stat.
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && info.mtime < olderThan) await rm(path, { force: true });
  }
}
