import { isResumeState, type ResumeState, type ResumeStore } from './resume-store.ts';

type NodeModules = {
  fs: typeof import('node:fs/promises');
  path: typeof import('node:path');
  os: typeof import('node:os');
  crypto: typeof import('node:crypto');
};

/**
 * Node's modules when running on Node (22.3 and later), without an import a browser bundler
 * would try to resolve: `process.getBuiltinModule`. Undefined elsewhere.
 */
function findNodeModules(): NodeModules | undefined {
  const load = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule;
  if (typeof load !== 'function') return undefined;
  return {
    fs: load('node:fs/promises') as NodeModules['fs'],
    path: load('node:path') as NodeModules['path'],
    os: load('node:os') as NodeModules['os'],
    crypto: load('node:crypto') as NodeModules['crypto'],
  };
}

/** Whether this runtime can keep upload states in files (Node; not a browser). */
export function canUseFileResumeStore(): boolean {
  return findNodeModules() !== undefined;
}

/**
 * Where uploads keep their state in Node by default: `~/.coffer/resumable-uploads/` (the
 * user's home directory, as `os.homedir()` names it), private to the user.
 */
export function defaultResumeDirectory(): string {
  const node = findNodeModules();
  if (!node) throw new TypeError('defaultResumeDirectory() needs Node');
  return node.path.join(node.os.homedir(), '.coffer', 'resumable-uploads');
}

/**
 * A store in a directory (Node): one small JSON file per upload, named by a hash of its key,
 * so that an app that restarts (or crashes) goes on with its uploads where they stopped.
 * The directory is created 0700 and each file 0600 (a state's URL is a credential for that
 * upload's bytes; it holds no token); a file is written beside and renamed into place, so a
 * crash leaves the old state or the new one, never half of one.
 */
export function fileResumeStore(directory: string = defaultResumeDirectory()): ResumeStore {
  const node = findNodeModules();
  if (!node) throw new TypeError('fileResumeStore() needs Node');
  const { fs, path, crypto } = node;
  const fileOf = (key: string) =>
    path.join(directory, `${crypto.createHash('sha256').update(key).digest('hex')}.json`);
  return {
    async get(key) {
      try {
        const state: unknown = JSON.parse(await fs.readFile(fileOf(key), 'utf8'));
        return isResumeState(state) ? state : undefined;
      } catch {
        return undefined; // absent, or not ours: as if absent (the next set replaces it)
      }
    },
    async set(key: string, state: ResumeState) {
      await fs.mkdir(directory, { recursive: true, mode: 0o700 });
      const file = fileOf(key);
      const next = `${file}.${crypto.randomBytes(6).toString('hex')}.next`;
      try {
        await fs.writeFile(next, JSON.stringify(state), { mode: 0o600, flag: 'wx' });
        await fs.rename(next, file);
      } finally {
        await fs.rm(next, { force: true });
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}
