import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CofferClient, type FileRecord, type Session } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import {
  credentialsFilePath,
  readSavedLogin,
  removeSavedLogin,
  type SavedLogin,
  writeSavedLogin,
} from './credentials-file.ts';
import type { ProgressReporter } from './progress.ts';
import { askSilently, readPassword } from './read-password.ts';
import { openOutput } from './zip-files.ts';

// The end-user commands (`coffer login`, `coffer files …`) talk HTTP to a running server
// through @coffer/client, as any app would: the one exception to "the CLI calls services".
// They act as the logged-in user, under the same three barriers and ACLs as any client.

export type LoginInput = {
  url?: string;
  appId?: string;
  email: string;
  passwordFromStdin: boolean;
};

export async function login(env: NodeJS.ProcessEnv, input: LoginInput) {
  const url = input.url ?? env.COFFER_URL;
  const appId = input.appId ?? env.COFFER_APP_ID;
  if (!url) throw new ConfigError('--url (or COFFER_URL) is required');
  if (!appId) throw new ConfigError('--app-id (or COFFER_APP_ID) is required');
  assertHttpUrl(url);
  const appSecret = env.COFFER_APP_SECRET || (await askAppSecret(input.passwordFromStdin));
  const password = await readPassword({ fromStdin: input.passwordFromStdin, existing: true });
  const client = new CofferClient({ baseUrl: url, appId, appSecret });
  const session = await client.login({ email: input.email, password });
  const file = credentialsFilePath(env);
  await writeSavedLogin(file, { url, appId, appSecret, email: input.email, session });
  return { url, email: input.email, userId: session.userId, credentialsFile: file };
}

/** Ends the session on the server, and forgets it here whatever the server said. */
export async function logout(env: NodeJS.ProcessEnv) {
  const file = credentialsFilePath(env);
  const saved = await readSavedLogin(file);
  try {
    await clientFor(saved, () => {}).logout();
  } finally {
    await removeSavedLogin(file);
  }
  return { loggedOut: saved.email };
}

/**
 * Runs `work` with a client on the saved session. A refresh rotates the refresh token (the old
 * one stops working), so the file is rewritten with each new session, even when `work` fails.
 */
export async function withSession<T>(env: NodeJS.ProcessEnv, work: (client: CofferClient) => Promise<T>) {
  const file = credentialsFilePath(env);
  const saved = await readSavedLogin(file);
  let latest: Session | undefined = saved.session;
  const client = clientFor(saved, (session) => {
    latest = session;
  });
  try {
    return await work(client);
  } finally {
    if (latest && latest !== saved.session) await writeSavedLogin(file, { ...saved, session: latest });
  }
}

function clientFor(saved: SavedLogin, onSession: (session: Session | undefined) => void): CofferClient {
  return new CofferClient({
    baseUrl: saved.url,
    appId: saved.appId,
    appSecret: saved.appSecret,
    session: saved.session,
    onSession,
  });
}

export async function* listFiles(
  client: CofferClient,
  prefix: string | undefined,
): AsyncGenerator<FileRecord> {
  yield* client.list({ filePath: prefix, pageSize: 100 });
}

/** A file as `coffer files ls` and `find` print it: id, size, path. */
export function toFileLine(file: FileRecord): string {
  const length = file.meta.ContentLength;
  const size = length === undefined ? 'unverified' : formatBytes(Number(length));
  return `${file._id}  ${size.padStart(10)}  ${file.filePath}`;
}

/** Streams a file's content to `out` (never over an existing file unless `force`). */
export async function downloadFile(
  client: CofferClient,
  input: { fileId: string; out?: string; force: boolean },
  progress: ProgressReporter,
) {
  const record = await client.get(input.fileId);
  const out = input.out ?? path.basename(record.filePath);
  // Opened before the transfer: an existing file is refused before any byte moves.
  const file = await openOutput(out, input.force);
  try {
    const response = await client.download(input.fileId);
    const length = Number(response.headers.get('content-length'));
    progress.phase('download', Number.isFinite(length) && length > 0 ? length : undefined, 'bytes');
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        progress.advance(chunk.length, chunk.length);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as never), counter, file.createWriteStream());
    progress.finish();
    return { fileId: record._id, out, sizeBytes: (await stat(out)).size };
  } catch (error) {
    await rm(out, { force: true }); // no half file left behind under the file's name
    throw error;
  } finally {
    await file.close().catch(() => {});
  }
}

async function askAppSecret(stdinTaken: boolean): Promise<string> {
  if (stdinTaken || !process.stdin.isTTY)
    throw new ConfigError('COFFER_APP_SECRET is required when the secret cannot be asked for at a terminal');
  return askSilently('App secret: ');
}

function assertHttpUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`--url ${url}: not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`--url ${url}: use http:// or https://`);
}
