import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ResumeState, ResumeStore } from '../../packages/client/src/index.ts';
import { privateDirectoryMode, privateFileMode } from './private-files.ts';

type States = Record<string, ResumeState>;

/** Where `coffer files upload` keeps its unfinished uploads: beside the saved login. */
export function uploadResumeFilePath(credentialsFile: string): string {
  return path.join(path.dirname(credentialsFile), 'uploads-in-progress.json');
}

/**
 * `coffer files upload`'s resume store: one JSON object of upload states by key, in a 0600
 * file in the login's 0700 directory (a state's URL is a credential for its upload's bytes;
 * it holds no token). Rewritten whole, synced, then renamed over the old one: a crash leaves
 * the old states or the new ones. Removed once no upload is unfinished.
 */
export class UploadResumeFile implements ResumeStore {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  async get(key: string): Promise<ResumeState | undefined> {
    return (await this.#read())[key];
  }

  async set(key: string, state: ResumeState): Promise<void> {
    await this.#write({ ...(await this.#read()), [key]: state });
  }

  async delete(key: string): Promise<void> {
    const { [key]: gone, ...others } = await this.#read();
    if (gone) await this.#write(others);
  }

  async #read(): Promise<States> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      const states: unknown = JSON.parse(text);
      return typeof states === 'object' && states !== null && !Array.isArray(states)
        ? (states as States)
        : {};
    } catch {
      return {}; // not ours: its uploads start afresh, and the next write replaces it
    }
  }

  async #write(states: States): Promise<void> {
    if (Object.keys(states).length === 0) return rm(this.#file, { force: true });
    await mkdir(path.dirname(this.#file), { recursive: true, mode: privateDirectoryMode });
    const next = `${this.#file}.${randomBytes(6).toString('hex')}.next`;
    try {
      const handle = await open(next, 'wx', privateFileMode);
      try {
        await handle.writeFile(`${JSON.stringify(states, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(next, this.#file);
    } finally {
      await rm(next, { force: true });
    }
  }
}
