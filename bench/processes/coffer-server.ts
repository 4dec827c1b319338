import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppCredentials } from '../../test/support/api-client.ts';
import { type ChildServer, startChildServer } from './child-server.ts';

const bin = path.resolve(import.meta.dirname, '../../bin/coffer.js');

export type CofferServer = ChildServer & { dataDir: string; credentials: AppCredentials };

/**
 * Runs `coffer serve` exactly as a user does (the CLI, its embedded defaults, a free loopback
 * port) and reads the default project's credentials it writes on first start.
 */
export async function startCofferServer(options: {
  dataDir: string;
  /** Extra flags for node itself, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** --database-url / --storage-url for another stack. */
  stackArgs?: string[];
  /** Extra environment (the event-loop probe's directory). */
  env?: NodeJS.ProcessEnv;
}): Promise<CofferServer> {
  const server = await startChildServer({
    command: process.execPath,
    args: [
      ...(options.nodeArgs ?? []),
      bin,
      'serve',
      '--data-dir',
      options.dataDir,
      '--port',
      '0',
      ...(options.stackArgs ?? []),
    ],
    logPath: path.join(options.dataDir, '..', `${path.basename(options.dataDir)}.log`),
    readyPattern: /Coffer ready at (\S+?)"/,
    env: options.env,
  });
  try {
    const credentials = JSON.parse(
      await readFile(path.join(options.dataDir, 'default-project.json'), 'utf8'),
    ) as AppCredentials;
    return { ...server, dataDir: options.dataDir, credentials };
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
