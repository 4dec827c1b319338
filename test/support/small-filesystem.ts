import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type SmallFilesystem = {
  dir: string;
  /** Free bytes, as an unprivileged writer sees them. */
  freeBytes(): Promise<number>;
  /** Writes `name` until the file system refuses (ENOSPC): nothing more fits afterwards. */
  fill(name: string): Promise<void>;
  unmount(): Promise<void>;
};

/**
 * A file system of its own, `sizeBytes` large (tmpfs), so a test can fill it for real. Needs
 * root (mount); answers the reason instead when mounting is not permitted here.
 */
export async function mountSmallFilesystem(sizeBytes: number): Promise<SmallFilesystem | string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'coffer-small-fs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0700`, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    return `mounting a ${sizeBytes}-byte tmpfs is not permitted here (it needs root): ${detail}`;
  }
  return {
    dir,
    freeBytes: async () => {
      const stats = await statfs(dir);
      return stats.bavail * stats.bsize;
    },
    fill: async (name) => {
      const handle = await open(path.join(dir, name), 'a');
      const page = Buffer.alloc(4096, 1);
      try {
        for (;;) await handle.write(page);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await handle.close();
      }
    },
    unmount: async () => {
      // Lazy: a server that just stopped may still hold a file open for a moment.
      await run('umount', ['-l', dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
