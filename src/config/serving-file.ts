import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * `<dataDir>/serving.json`: where the server running on this data dir answers, and its
 * process. `coffer console` reads it, so the sign-in link it prints points at the port the
 * server really listens on (`--port 0`, a port from the environment) rather than the default.
 * Not a secret: the URL is what the server prints at start.
 */
const fileName = 'serving.json';

type Serving = { url: string; pid: number };

/** Written once the server answers; replaced whole (a reader never sees half a file). */
export async function writeServingFile(dataDir: string, url: string): Promise<void> {
  const file = path.join(dataDir, fileName);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ url, pid: process.pid } satisfies Serving)}\n`);
  await rename(temp, file);
}

/** Removed at a clean stop, unless another server on the same data dir has written it since. */
export async function removeServingFile(dataDir: string): Promise<void> {
  const file = path.join(dataDir, fileName);
  const serving = await readServing(file);
  if (serving?.pid === process.pid) await rm(file, { force: true });
}

/** The URL of the server running on this data dir; undefined if none is (or it died). */
export async function findServingUrl(dataDir: string): Promise<string | undefined> {
  const serving = await readServing(path.join(dataDir, fileName));
  return serving && isAlive(serving.pid) ? serving.url : undefined;
}

async function readServing(file: string): Promise<Serving | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    const { url, pid } = (parsed ?? {}) as Partial<Serving>;
    return typeof url === 'string' && Number.isInteger(pid) ? { url, pid: pid as number } : undefined;
  } catch {
    return undefined; // missing or damaged: as if no server ran
  }
}

/** A kill -9 leaves the file behind: a process that is gone does not count. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}
