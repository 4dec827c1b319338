/**
 * A private, throwaway PostgreSQL cluster for tests, started from Debian's `postgresql`
 * package binaries (the system cluster is never touched): initdb into a folder of its own
 * (makeClusterFolder), pg_ctl start on a free loopback port with the socket in that folder,
 * trust auth, fsync off.
 * COFFER_TEST_POSTGRES_URL instead points the tests at an existing server (CI service).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chown, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export type PostgresServer = {
  /** A fresh, empty database of its own. */
  url: string;
  /** Another fresh, empty database on the same server. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
  /** The postmaster's pid, for a cluster this process started (the bench counts its CPU). */
  postmasterPid?: () => Promise<number>;
};

const run = promisify(execFile);

/** A private cluster a test may stop and start again (a database outage), on the same port. */
export type PrivatePostgresServer = PostgresServer & {
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash or a power cut. */
  stopImmediately(): Promise<void>;
  /** Starts the stopped cluster again (it recovers from its write-ahead log). */
  start(): Promise<void>;
};

/**
 * PostgreSQL is installed but would not start (or a given server takes no connection). The
 * message says why in one line, with the failing program's own words.
 */
export class PostgresStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresStartError';
    // The frames of this module say nothing about why another program failed: the message does.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * Starts a server, or returns undefined (after saying so, loudly) when PostgreSQL is not
 * installed. Throws a PostgresStartError when it is but cannot start.
 */
export async function startPostgres(
  options: {
    /** On COFFER_TEST_POSTGRES_URL's server: `url` is a copy of this database, not an empty one. */
    template?: string;
  } = {},
): Promise<PostgresServer | undefined> {
  const external = process.env['COFFER_TEST_POSTGRES_URL'];
  if (!external) return startPrivatePostgres();
  try {
    return await onServer(external, async () => {}, options.template);
  } catch (error) {
    throw new PostgresStartError(
      `PostgreSQL at COFFER_TEST_POSTGRES_URL took no connection: ${causeOf(error)}`,
    );
  }
}

/**
 * Always a cluster of its own, even when COFFER_TEST_POSTGRES_URL names a shared server: a
 * test that stops its database must not stop anyone else's. Undefined when not installed; a
 * PostgresStartError when installed but unable to start.
 */
export async function startPrivatePostgres(
  options: {
    /**
     * Commit only once the WAL is written (synchronous_commit=on), so that a stop -m immediate
     * keeps every acknowledged transaction. Off by default: faster, and enough for most tests.
     */
    durableCommits?: boolean;
  } = {},
): Promise<PrivatePostgresServer | undefined> {
  const binDir = findPostgresBinDir();
  if (binDir === undefined) {
    console.warn(
      '\n*** SKIPPED: the PostgreSQL repository tests (no /usr/lib/postgresql/*/bin/initdb). ' +
        'Enable them with `apt-get install -y postgresql` (the tests start their own private server; ' +
        'the system one may stay stopped) or set COFFER_TEST_POSTGRES_URL=postgres://… ***\n',
    );
    return undefined;
  }
  // initdb and postgres refuse to run as root: run them as the package's postgres user.
  const asRoot = process.getuid?.() === 0;
  const dir = await startStep('its folder', () => makeClusterFolder(asRoot));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const toCommand = (binary: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(binDir, binary), ...args]]
      : [join(binDir, binary), args];
  const pgCtl = (...args: string[]) => toCommand('pg_ctl', ['-D', dataDir, ...args]);
  let settings: string[] = [];
  const start = () =>
    startStep(
      'pg_ctl start',
      () => run(...pgCtl('start', '-w', '-t', '60', '-l', logFile, '-o', settings.join(' '))),
      logFile,
    );
  const stopNow = () => {
    try {
      execFileSync(...pgCtl('stop', '-m', 'immediate'), { stdio: 'ignore' });
    } catch {
      // already stopped, or never started
    }
  };
  const initdbArgs = [
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ];
  let started = false;
  let unregister = () => {};
  let server: PostgresServer;
  try {
    await startStep('initdb', () => run(...toCommand('initdb', initdbArgs)));
    settings = [
      `-c port=${await freePort()}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${dir}'`,
      // fsync only matters when the machine crashes; the processes dying loses nothing.
      `-c fsync=off -c synchronous_commit=${options.durableCommits ? 'on' : 'off'} -c full_page_writes=off`,
    ];
    await start();
    started = true;
    // From here a crashed run stops the cluster and removes its folder on the way out.
    unregister = stopOnExit(() => {
      stopNow();
      rmSync(dir, { recursive: true, force: true });
    });
    const port = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[3]);
    server = await startStep('its first connection', () =>
      onServer(`postgres://postgres@127.0.0.1:${port}/postgres`, async () => {
        unregister();
        await run(...pgCtl('stop', '-m', 'fast', '-w'));
        await rm(dir, { recursive: true, force: true });
      }),
    );
  } catch (error) {
    unregister();
    if (started) stopNow();
    await rm(dir, { recursive: true, force: true });
    throw asStartError(error);
  }
  let running = true;
  const startAgain = async () => {
    await start();
    running = true;
  };
  return {
    ...server,
    // Read each time: a restarted cluster has a new postmaster.
    postmasterPid: async () =>
      Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]),
    // Its databases are dropped before the cluster stops: a stopped cluster starts again first.
    async stop() {
      if (!running) await startAgain();
      await server.stop();
    },
    async stopImmediately() {
      await run(...pgCtl('stop', '-m', 'immediate', '-w'));
      running = false;
    },
    start: startAgain,
  };
}

/**
 * A fresh folder for one cluster, removed when it stops. Not root: in the temp folder, as
 * initdb runs as us. Root: initdb and postgres run as the postgres user, who must reach the
 * folder, and the system's temp folder may be closed to it (mode 0700, say), which is not ours
 * to change: in a folder of ours in that user's home (/var/lib/postgresql on Debian).
 */
async function makeClusterFolder(asRoot: boolean): Promise<string> {
  if (!asRoot) return mkdtemp(join(tmpdir(), 'coffer-pg-'));
  const user = await postgresUser();
  const dir = await mkdtemp(join(await sharedClustersFolder(user), 'coffer-pg-'));
  await chown(dir, user.uid, user.gid);
  return dir;
}

type PostgresUser = { uid: number; gid: number; home: string };

/** The package's postgres user, from `getent passwd postgres`. */
async function postgresUser(): Promise<PostgresUser> {
  const found = await run('getent', ['passwd', 'postgres']).catch(() => undefined);
  const entry = found?.stdout.trim().split(':') ?? [];
  const [uid, gid, home] = [Number(entry[2]), Number(entry[3]), entry[5]];
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || !home)
    throw new Error(`no postgres user with a home (\`getent passwd postgres\`: "${entry.join(':')}")`);
  return { uid, gid, home };
}

/**
 * The postgres user's folder of clusters, shared by every test process and every run (so it
 * stays). Made ready under a name of its own, then renamed into place: several processes may
 * get here at once, and whoever finds the folder finds it the postgres user's already.
 */
async function sharedClustersFolder(user: PostgresUser): Promise<string> {
  const folder = join(user.home, 'coffer-test-clusters');
  if (existsSync(folder)) return folder;
  const draft = await mkdtemp(join(user.home, '.coffer-test-clusters-'));
  try {
    await chown(draft, user.uid, user.gid);
    await rename(draft, folder);
  } catch (error) {
    await rm(draft, { recursive: true, force: true });
    // Another process put its own in place first (ours could not replace it): use that one.
    if (!existsSync(folder)) throw error;
  }
  return folder;
}

/** One step of a start; its failure becomes a PostgresStartError naming the step and the cause. */
async function startStep<T>(step: string, work: () => Promise<T>, logFile?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PostgresStartError) throw error;
    const cause = causeOf(error);
    // A program's own line names it already ("initdb: error: …").
    const said = cause.startsWith(`${step.split(' ')[0]}:`) ? cause : `${step}: ${cause}`;
    const logged = logFile ? await lastLogProblem(logFile) : undefined;
    throw new PostgresStartError(`PostgreSQL could not start: ${said}${logged ? ` (${logged})` : ''}`);
  }
}

/** Any failure to start (a step's, or one outside the steps) as a PostgresStartError. */
function asStartError(error: unknown): PostgresStartError {
  return error instanceof PostgresStartError
    ? error
    : new PostgresStartError(`PostgreSQL could not start: ${causeOf(error)}`);
}

/**
 * The first line that says what went wrong: a failed command's stderr (its first error line,
 * else its first line) rather than execFile's dump of the whole command and output.
 */
export function causeOf(error: unknown): string {
  const { stderr, message, code, errors } = error as {
    stderr?: string;
    message?: string;
    code?: string;
    errors?: unknown[];
  };
  const lines = `${stderr ?? ''}`
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const fromStderr = lines.find((line) => /\b(error|fatal|panic)\b/i.test(line)) ?? lines[0];
  // A refused connection to "localhost" is an AggregateError (one per address) with no message.
  if (!fromStderr && !message && errors?.length) return causeOf(errors[0]);
  return fromStderr ?? message?.split('\n')[0] ?? code ?? String(error);
}

/**
 * The server log's last FATAL or PANIC line (why pg_ctl start failed), if any: the last, as a
 * cluster started again after an outage has older ones (connections it terminated).
 */
async function lastLogProblem(logFile: string): Promise<string | undefined> {
  const log = await readFile(logFile, 'utf8').catch(() => '');
  const found = [...log.matchAll(/\b((?:FATAL|PANIC):.*)/g)].at(-1)?.[1];
  return found ? `server.log: ${found.replace(/\s+/g, ' ')}` : undefined;
}

/**
 * A crashed or interrupted run must not leave a server behind: stop it on exit and on
 * SIGINT/SIGTERM (then die of the same signal). Only SIGKILL gets past this.
 */
export function stopOnExit(stop: () => void): () => void {
  const onExit = () => stop();
  const onSignal = (signal: NodeJS.Signals) => {
    unregister();
    stop();
    process.kill(process.pid, signal);
  };
  const unregister = () => {
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('exit', onExit);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return unregister;
}

async function onServer(
  adminUrl: string,
  shutdown: () => Promise<void>,
  template?: string,
): Promise<PostgresServer> {
  const created: string[] = [];
  const admin = (query: string) => withClient(adminUrl, (client) => client.query(query));
  const createDatabase = async (from?: string) => {
    const name = `coffer_test_${process.pid}_${Date.now().toString(36)}_${created.length}`;
    // A template is a name the run chose (migrated-databases.ts), never input: quoted all the same.
    await admin(`create database ${name}${from ? ` template "${from.replaceAll('"', '""')}"` : ''}`);
    created.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    url: await createDatabase(template),
    createDatabase: () => createDatabase(),
    async stop() {
      for (const name of created) await admin(`drop database if exists ${name} with (force)`);
      await shutdown();
    },
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function findPostgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

/** A port free on loopback a moment ago (a race another process may win, rarely). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
