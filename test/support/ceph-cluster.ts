import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { toCephConf } from './ceph-conf.ts';
import { causeOf, freePort, stopOnExit } from './postgres-server.ts';

const run = promisify(execFile);
const PROGRAMS = ['monmaptool', 'ceph-mon', 'ceph-osd', 'ceph', 'radosgw', 'radosgw-admin'] as const;
type Program = (typeof PROGRAMS)[number];
export type CephPrograms = Record<Program, string>;
/** A hang guard for a daemon to come up (it takes a second or two), not a speed check. */
const START_TIMEOUT_MS = 120_000;

/** Ceph is installed but the cluster would not come up; the message says why in one line. */
export class RgwStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RgwStartError';
    // The frames of this module say nothing about why a daemon failed: the message does.
    this.stack = `${this.name}: ${message}`;
  }
}

/** Any failure to start as an RgwStartError, naming the step that failed when given. */
export function toRgwStartError(error: unknown, step?: string): RgwStartError {
  if (error instanceof RgwStartError) return error;
  return new RgwStartError(`RGW could not start: ${step ? `${step}: ` : ''}${causeOf(error)}`);
}

/** The absolute path of each Ceph program, or undefined when any is missing. */
export function findCephPrograms(): CephPrograms | undefined {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin'].filter(Boolean);
  const found: Partial<CephPrograms> = {};
  for (const program of PROGRAMS) {
    const path = folders.map((folder) => join(folder, program)).find((candidate) => existsSync(candidate));
    if (!path) return undefined;
    found[program] = path;
  }
  return found as CephPrograms;
}

type Daemon = { name: string; child: ChildProcess; exited: Promise<unknown> };

/**
 * The daemons of one throwaway Ceph cluster (a monitor, an OSD, radosgw) as children of this
 * process, everything in a folder of its own and every program given `-c <its config>`, so
 * the system's /etc/ceph and /var/lib/ceph are never read or written. The daemons die by
 * SIGKILL (the cluster keeps nothing worth a clean stop) at destroy() and when this process
 * exits or is interrupted.
 */
export class CephCluster {
  readonly #programs: CephPrograms;
  readonly #dir: string;
  readonly #conf: string;
  readonly #endpoint: string;
  readonly #daemons: Daemon[] = [];
  readonly #unregister: () => void;
  #gateway: Daemon | undefined;

  constructor(options: { programs: CephPrograms; dir: string; endpoint: string }) {
    this.#programs = options.programs;
    this.#dir = options.dir;
    this.#conf = join(options.dir, 'ceph.conf');
    this.#endpoint = options.endpoint;
    // A crashed or interrupted run leaves no daemon and no folder behind (SIGKILL aside).
    this.#unregister = stopOnExit(() => {
      this.#killAll();
      rmSync(options.dir, { recursive: true, force: true });
    });
  }

  /** Writes the config, makes and starts the monitor, then the OSD (memstore). */
  async bootstrap(): Promise<void> {
    const fsid = randomUUID();
    const monitor = `v2:127.0.0.1:${await freePort()}`;
    await writeFile(this.#conf, toCephConf({ fsid, dir: this.#dir, monitor, endpoint: this.#endpoint }));
    for (const folder of ['run', 'log', 'crash', 'mon.a', 'rgw']) await mkdir(join(this.#dir, folder));
    const monmap = join(this.#dir, 'monmap');
    await this.#run('monmaptool', ['--create', '--fsid', fsid, '--add', 'a', monitor, monmap]);
    await this.#run('ceph-mon', ['--mkfs', '-i', 'a', '--monmap', monmap]);
    this.#spawn('ceph-mon', 'mon.a', ['-i', 'a']);
    const osdUuid = randomUUID();
    // The CLI keeps trying to reach the monitor (just started) until its timeout.
    const { stdout } = await this.#run('ceph', ['--connect-timeout', '60', 'osd', 'new', osdUuid]);
    const osdId = stdout.trim();
    await mkdir(join(this.#dir, `osd.${osdId}`));
    await this.#run('ceph-osd', ['--mkfs', '-i', osdId, '--osd-uuid', osdUuid]);
    this.#spawn('ceph-osd', `osd.${osdId}`, ['-i', osdId]);
  }

  /** Starts radosgw and waits until it answers HTTP: it listens once its pools exist. */
  async startGateway(): Promise<void> {
    this.#gateway = this.#spawn('radosgw', 'client.rgw', ['-n', 'client.rgw']);
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await answers(this.#endpoint))) {
      const dead = this.#daemons.find(({ child }) => child.exitCode !== null || child.signalCode !== null);
      if (dead) {
        const { exitCode, signalCode } = dead.child;
        const said = await lastLogProblem(this.#dir, dead.name);
        throw new RgwStartError(
          `RGW could not start: ${dead.name} exited (${signalCode ?? exitCode})${said ? `: ${said}` : ''}`,
        );
      }
      if (Date.now() > deadline) {
        const said = await lastLogProblem(this.#dir, 'client.rgw');
        throw new RgwStartError(`RGW could not start: radosgw never answered${said ? ` (${said})` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGKILLs radosgw alone, as in a crash; the objects stay in the OSD. */
  async killGateway(): Promise<void> {
    const gateway = this.#gateway;
    if (!gateway) return;
    gateway.child.kill('SIGKILL');
    await gateway.exited;
    this.#daemons.splice(this.#daemons.indexOf(gateway), 1);
    this.#gateway = undefined;
  }

  /** An S3 user with the given keys (`radosgw-admin user create`). */
  async createUser(keys: { accessKeyId: string; secretAccessKey: string }): Promise<void> {
    const user = ['--uid', 'coffer', '--display-name', 'Coffer tests'];
    const keyArgs = ['--access-key', keys.accessKeyId, '--secret-key', keys.secretAccessKey];
    await this.#run('radosgw-admin', ['user', 'create', ...user, ...keyArgs]);
  }

  /** Kills every daemon and removes the folder; safe to call again. */
  async destroy(): Promise<void> {
    this.#unregister();
    this.#killAll();
    await Promise.all(this.#daemons.map(({ exited }) => exited));
    await rm(this.#dir, { recursive: true, force: true });
  }

  /** A one-shot program; its failure is one line in its own words. */
  async #run(program: Program, args: string[]) {
    try {
      return await run(this.#programs[program], ['-c', this.#conf, ...args]);
    } catch (error) {
      throw toRgwStartError(error, `${program} ${args[0]}`);
    }
  }

  /** A daemon in the foreground (`-f`), its stdout and stderr in `log/<name>.out`. */
  #spawn(program: Program, name: string, args: string[]): Daemon {
    const output = openSync(join(this.#dir, 'log', `${name}.out`), 'a');
    const child = spawn(this.#programs[program], ['-c', this.#conf, ...args, '-f'], {
      stdio: ['ignore', output, output],
    });
    closeSync(output);
    const daemon = { name, child, exited: once(child, 'exit') };
    this.#daemons.push(daemon);
    return daemon;
  }

  #killAll(): void {
    for (const { child } of this.#daemons) child.kill('SIGKILL');
  }
}

/** Whether anything answers HTTP there. */
async function answers(endpoint: string): Promise<boolean> {
  try {
    await (await fetch(endpoint, { signal: AbortSignal.timeout(5000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** A daemon's last error line: what it printed (`-f`), else its log's last `-1` (error) entry. */
async function lastLogProblem(dir: string, name: string): Promise<string | undefined> {
  for (const file of [`${name}.out`, `${name}.log`]) {
    const lines = (await readFile(join(dir, 'log', file), 'utf8').catch(() => '')).split('\n');
    const found = lines.filter((line) => /\s-1\s|error|failed/i.test(line)).at(-1);
    if (found) return `${file}: ${found.replace(/^\S+ \S+\s+-1\s+/, '').trim()}`;
  }
  return undefined;
}
