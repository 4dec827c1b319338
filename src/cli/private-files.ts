import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.ts';

// Coffer's files hold secrets (default-project.json, the signing keys in the database, an
// export) or users' private files (the blobs): only the account that runs Coffer may read them.

/** Mode of every file Coffer writes. */
export const privateFileMode = 0o600;
/** Mode of every directory Coffer creates. */
export const privateDirectoryMode = 0o700;

/**
 * Process-wide, so that what no explicit mode covers is private too: SQLite's -wal and -shm,
 * blob and temp files, directories made on the way. Inherited by --workers processes.
 */
export function restrictNewFilesToOwner(): void {
  process.umask(0o077);
}

/** Bits that let other users in; a directory that has them but is everyone's (/tmp) is left alone. */
const othersBits = 0o077;
const stickyOrWorldWritable = 0o1002;

/**
 * Earlier versions left the data dir, the database and the blobs readable by every user of the
 * machine. Takes group and other bits off them (and off everything under a loose blob root),
 * and says so in one log line. Only entries this process owns; never a shared directory.
 */
export async function tightenExistingFiles(config: Config, log: (line: string) => void): Promise<void> {
  const tightened: string[] = [];
  const dataDir = path.resolve(config.dataDir);
  const files = [path.join(dataDir, 'default-project.json')];
  if (config.databaseUrl.startsWith('sqlite:') && config.databaseUrl !== 'sqlite::memory:') {
    const database = path.resolve(config.databaseUrl.slice('sqlite:'.length));
    files.push(database, `${database}-wal`, `${database}-shm`, `${database}-journal`);
  }
  for (const file of files) if (await tighten(file)) tightened.push(file);
  if (config.storageUrl.startsWith('file:')) {
    const root = path.resolve(config.storageUrl.slice('file:'.length));
    // The root last: a start interrupted half-way finds it loose again and resumes.
    if (await canTighten(root)) {
      for (const name of await readdir(root, { recursive: true }))
        if (await tighten(path.join(root, name))) tightened.push(path.join(root, name));
      if (await tighten(root)) tightened.push(root);
    }
  }
  if (await tighten(dataDir)) tightened.push(dataDir);
  if (tightened.length === 0) return;
  const shown = tightened.slice(0, 5).join(', ') + (tightened.length > 5 ? ', …' : '');
  log(
    `tightened the modes of ${tightened.length} files and directories that an earlier version left readable by other users (now 0600 files in 0700 directories): ${shown}`,
  );
}

/** Loose, this process's own, no symbolic link, and no directory shared by everyone. */
async function canTighten(file: string): Promise<boolean> {
  const info = await lstat(file).catch(() => undefined);
  if (!info || info.isSymbolicLink() || (info.mode & othersBits) === 0) return false;
  if (info.uid !== process.getuid?.()) return false;
  return !(info.isDirectory() && (info.mode & stickyOrWorldWritable) !== 0);
}

/** Takes group and other bits off one entry; answers whether it changed anything. */
async function tighten(file: string): Promise<boolean> {
  if (!(await canTighten(file))) return false;
  await chmod(file, (await lstat(file)).mode & 0o7700);
  return true;
}
