import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Session } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import { privateDirectoryMode, privateFileMode } from './private-files.ts';

/** What `coffer login` keeps for the end-user commands: where, as which app, and the session. */
export type SavedLogin = { url: string; appId: string; appSecret?: string; email: string; session: Session };

/**
 * `COFFER_CREDENTIALS_FILE`, else `$XDG_CONFIG_HOME/coffer/credentials.json`, else
 * `~/.config/coffer/credentials.json`. It holds the app secret and a refresh token: mode 0600
 * in a 0700 directory; never the password.
 */
export function credentialsFilePath(env: NodeJS.ProcessEnv): string {
  if (env.COFFER_CREDENTIALS_FILE) return path.resolve(env.COFFER_CREDENTIALS_FILE);
  const configHome = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(configHome, 'coffer', 'credentials.json');
}

export async function readSavedLogin(file: string): Promise<SavedLogin> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ConfigError(`not logged in (no ${file}): run coffer login first`);
    throw new ConfigError(`${file}: cannot read it (${(error as Error).message})`);
  }
  const saved = parseSavedLogin(text);
  if (!saved) throw new ConfigError(`${file}: not a coffer login (run coffer login again)`);
  return saved;
}

function parseSavedLogin(text: string): SavedLogin | undefined {
  try {
    const value = JSON.parse(text) as Partial<SavedLogin>;
    const session = value.session;
    const valid =
      typeof value.url === 'string' &&
      typeof value.appId === 'string' &&
      typeof value.email === 'string' &&
      typeof session?.refreshToken === 'string' &&
      typeof session.token === 'string';
    return valid ? (value as SavedLogin) : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name, then renamed: a reader never sees half a file. */
export async function writeSavedLogin(file: string, login: SavedLogin): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: privateDirectoryMode });
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    await writeFile(partial, `${JSON.stringify(login, null, 2)}\n`, { mode: privateFileMode, flag: 'wx' });
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
}

export async function removeSavedLogin(file: string): Promise<void> {
  await rm(file, { force: true });
}
