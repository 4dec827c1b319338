import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** `coffer-sockets-<primary's pid>-<mkdtemp's six characters>`. */
const runtimeDirName = /^coffer-sockets-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * The primary's private folder (0700, from mkdtemp) for its workers' sockets, named after its
 * pid. A primary stopped normally removes its own; one killed by SIGKILL or the OOM killer
 * cannot, so each start first removes the folders of primaries no longer running, owned by
 * this user (a kill-testing suite left hundreds in /tmp).
 */
export async function makeRuntimeDir(): Promise<string> {
  await removeOrphanedRuntimeDirs();
  return mkdtemp(path.join(tmpdir(), `coffer-sockets-${process.pid}-`));
}

/** Best effort: a folder it cannot read or remove stays, and the start goes on. */
async function removeOrphanedRuntimeDirs(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(runtimeDirName.exec(name)?.[1]);
    if (!pid || isRunning(pid)) continue;
    const dir = path.join(tmpdir(), name);
    // lstat: a symbolic link by that name is someone else's, not a folder of ours.
    const stats = await lstat(dir).catch(() => undefined);
    if (!stats?.isDirectory() || stats.uid !== process.getuid?.()) continue;
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** Whether a process of that pid exists (EPERM: it does, another user's). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
