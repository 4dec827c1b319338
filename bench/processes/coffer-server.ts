import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppCredentials } from '../../test/support/api-client.ts';
import { childrenOf } from '../../test/support/coffer-process.ts';
import { freePort } from '../../test/support/postgres-server.ts';
import { type ChildServer, startChildServer } from './child-server.ts';

const bin = path.resolve(import.meta.dirname, '../../bin/coffer.js');

export type CofferServer = ChildServer & {
  dataDir: string;
  credentials: AppCredentials;
  /** Its PostgreSQL database (pg stacks), for seeding records. */
  databaseUrl?: string;
  /** Its key prefix in the S3 bucket (pg-s3), for a scenario that deletes what a run stored. */
  blobPrefix?: string;
  /** The worker process that serves (`pid` is the supervising primary's): RSS and profiles are its. */
  workerPid: number;
};

/**
 * Runs `coffer serve` exactly as a user does (the CLI, its embedded defaults, a loopback port)
 * and reads the default project's credentials it writes on first start. Ready is when
 * /healthz answers, not a log line: the primary logs "Coffer ready at" only at level info,
 * and a run may set COFFER_LOG_LEVEL=warn.
 */
export async function startCofferServer(options: {
  dataDir: string;
  /** Extra flags for node itself, e.g. --cpu-prof (the worker inherits them: cluster.fork passes execArgv on). */
  nodeArgs?: string[];
  /** --database-url / --storage-url for another stack, and the environment it needs (and the event-loop probe's). */
  args?: string[];
  env?: Record<string, string>;
  databaseUrl?: string;
  blobPrefix?: string;
}): Promise<CofferServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startChildServer({
    command: process.execPath,
    args: [
      ...(options.nodeArgs ?? []),
      // Node flags for the server alone (profiling it: --cpu-prof, --trace-gc; docs/benchmarks.md).
      ...(process.env.COFFER_BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      bin,
      'serve',
      '--data-dir',
      options.dataDir,
      '--port',
      String(port),
      ...(options.args ?? []),
    ],
    env: options.env,
    logPath: path.join(options.dataDir, '..', `${path.basename(options.dataDir)}.log`),
    ready: { url, path: '/healthz' },
    // The first start migrates the database (PostgreSQL: a few seconds) before any worker forks.
    timeoutMs: 90_000,
  });
  try {
    const credentials = JSON.parse(
      await readFile(path.join(options.dataDir, 'default-project.json'), 'utf8'),
    ) as AppCredentials;
    const [workerPid] = await childrenOf(server.pid);
    if (workerPid === undefined) throw new Error(`coffer serve (pid ${server.pid}) has no worker process`);
    const { dataDir, databaseUrl, blobPrefix } = options;
    return {
      ...server,
      dataDir,
      credentials,
      workerPid,
      ...(databaseUrl && { databaseUrl }),
      ...(blobPrefix && { blobPrefix }),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The server's resident set size (VmRSS) in bytes, from /proc: Linux only. */
export async function readRssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}
