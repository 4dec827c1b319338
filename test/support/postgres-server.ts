/**
 * A private, throwaway PostgreSQL cluster for tests, started from Debian's `postgresql`
 * package binaries (the system cluster is never touched): initdb into a temp dir, pg_ctl
 * start on a free loopback port with the socket in that dir, trust auth, fsync off.
 * COFFER_TEST_POSTGRES_URL instead points the tests at an existing server (CI service).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
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
};

const run = promisify(execFile);

/** A private cluster a test may stop and start again (a database outage), on the same port. */
export type PrivatePostgresServer = PostgresServer & {
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash or a power cut. */
  stopImmediately(): Promise<void>;
  /** Starts the stopped cluster again (it recovers from its write-ahead log). */
  start(): Promise<void>;
};

/** Starts a server, or returns undefined (after saying so, loudly) when PostgreSQL is not installed. */
export async function startPostgres(): Promise<PostgresServer | undefined> {
  const external = process.env['COFFER_TEST_POSTGRES_URL'];
  if (external) return onServer(external, async () => {});
  return startPrivatePostgres();
}

/**
 * Always a cluster of its own, even when COFFER_TEST_POSTGRES_URL names a shared server: a
 * test that stops its database must not stop anyone else's. Undefined when not installed.
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
  const dir = await mkdtemp(join(tmpdir(), 'coffer-pg-'));
  const dataDir = join(dir, 'data');
  // initdb and postgres refuse to run as root: run them as the package's postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chown(dir, await idOf('-u'), await idOf('-g'));
  const toCommand = (binary: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(binDir, binary), ...args]]
      : [join(binDir, binary), args];
  const pgCtl = (...args: string[]) => toCommand('pg_ctl', ['-D', dataDir, ...args]);
  let settings: string[];
  const start = () =>
    run(...pgCtl('start', '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', settings.join(' ')));
  try {
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
    await run(...toCommand('initdb', initdbArgs));
    settings = [
      `-c port=${await freePort()}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${dir}'`,
      // fsync only matters when the machine crashes; the processes dying loses nothing.
      `-c fsync=off -c synchronous_commit=${options.durableCommits ? 'on' : 'off'} -c full_page_writes=off`,
    ];
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const port = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[3]);
  const unregister = stopOnExit(() => {
    try {
      execFileSync(...pgCtl('stop', '-m', 'immediate'), { stdio: 'ignore' });
    } catch {
      // already stopped
    }
  });
  let running = true;
  const server = await onServer(`postgres://postgres@127.0.0.1:${port}/postgres`, async () => {
    unregister();
    await run(...pgCtl('stop', '-m', 'fast', '-w'));
    await rm(dir, { recursive: true, force: true });
  });
  const startAgain = async () => {
    await start();
    running = true;
  };
  return {
    ...server,
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
 * A crashed or interrupted run must not leave a server behind: stop it on exit and on
 * SIGINT/SIGTERM (then die of the same signal). Only SIGKILL gets past this.
 */
function stopOnExit(stop: () => void): () => void {
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

async function onServer(adminUrl: string, shutdown: () => Promise<void>): Promise<PostgresServer> {
  const created: string[] = [];
  const admin = (query: string) => withClient(adminUrl, (client) => client.query(query));
  const createDatabase = async () => {
    const name = `coffer_test_${process.pid}_${Date.now().toString(36)}_${created.length}`;
    await admin(`create database ${name}`);
    created.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    url: await createDatabase(),
    createDatabase,
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

async function idOf(flag: '-u' | '-g'): Promise<number> {
  return Number((await run('id', [flag, 'postgres'])).stdout.trim());
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
