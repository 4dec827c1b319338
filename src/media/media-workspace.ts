import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The process's private temp directory for media jobs (mode 0700, made at the first job): each
 * job gets a directory of its own inside, the tools' cwd and where their output goes, removed
 * after the job; close() removes the whole directory.
 */
export class MediaWorkspace {
  readonly #root: string;
  #directory: Promise<string> | undefined;
  #serial = 0;

  constructor(root = tmpdir()) {
    this.#root = root;
  }

  /** Runs `job` with a fresh private directory, removed afterwards whatever happened. */
  async withJobDirectory<T>(job: (directory: string) => Promise<T>): Promise<T> {
    const directory = path.join(await this.#ensure(), `job-${++this.#serial}`);
    await mkdir(directory, { mode: 0o700 });
    try {
      return await job(directory);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /** The process's private directory (made now if it is not yet). */
  directory(): Promise<string> {
    return this.#ensure();
  }

  async close(): Promise<void> {
    const directory = await this.#directory?.catch(() => undefined);
    this.#directory = undefined;
    if (directory) await rm(directory, { recursive: true, force: true });
  }

  #ensure(): Promise<string> {
    // mkdtemp makes the directory 0700: other users of the machine cannot read the copies.
    this.#directory ??= mkdtemp(path.join(this.#root, 'coffer-media-'));
    return this.#directory;
  }
}
