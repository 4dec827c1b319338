import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchOptions } from './bench-options.ts';
import { registerServer } from './probes/process-cpu.ts';
import { BenchStores, type StackName } from './processes/bench-stores.ts';
import { startChildServer } from './processes/child-server.ts';
import { type CofferServer, startCofferServer } from './processes/coffer-server.ts';
import { findNginx, startNginx } from './processes/nginx-server.ts';
import { seedWorkload, type Workload } from './seed/workload.ts';

const serversDir = path.resolve(import.meta.dirname, 'servers');

/**
 * What scenarios share: the options, a temp dir, and the processes, each started on first
 * use (so `--only get-file` starts neither nginx nor the scale servers) and stopped by close().
 */
export class BenchContext {
  readonly options: BenchOptions;
  readonly workDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-'));
  /** Extra node flags for Coffer servers (the profiler sets --cpu-prof). */
  readonly nodeArgs: string[];
  /** Things a reader of the results should know (a baseline skipped, and why). */
  readonly notes: string[] = [];
  /** PostgreSQL and S3 for the pg stacks, started on first use. */
  readonly stores = new BenchStores();
  /** Every Coffer server started so far (the profiler reads their worker pids). */
  readonly coffers: CofferServer[] = [];
  readonly #stops: Array<() => Promise<void>> = [];
  readonly #started = new Map<string, Promise<unknown>>();

  constructor(options: BenchOptions, nodeArgs: string[] = []) {
    this.options = options;
    this.nodeArgs = nodeArgs;
  }

  /** The main seeded Coffer server most scenarios run against. */
  workload(): Promise<Workload> {
    return this.#once('coffer', async () => seedWorkload(await this.startCoffer('coffer'), 'main'));
  }

  /**
   * Another Coffer server with its own data dir (scale, memory), on the run's stack unless
   * told; `extra` adds node flags and environment (the event-loop probe).
   */
  async startCoffer(
    name: string,
    extra: { stack?: StackName; nodeArgs?: string[]; env?: Record<string, string>; args?: string[] } = {},
  ): Promise<CofferServer> {
    const dataDir = path.join(this.workDir, name);
    mkdirSync(dataDir, { recursive: true });
    const settings = await this.stores.settingsFor(extra.stack ?? this.options.stack, name);
    const server = await startCofferServer({
      dataDir,
      nodeArgs: [...this.nodeArgs, ...(extra.nodeArgs ?? [])],
      args: [...settings.args, ...(extra.args ?? [])],
      env: { ...settings.env, ...extra.env },
      databaseUrl: settings.databaseUrl,
      blobPrefix: settings.blobPrefix,
    });
    this.#stops.push(server.stop);
    this.coffers.push(server);
    // Its CPU per request counts PostgreSQL's backends too, on the pg stacks.
    registerServer(server.url, async () => [server.pid, ...(await this.stores.postgresPids())]);
    return server;
  }

  /** The bare Fastify constant-JSON baseline (with `workers` > 1: a cluster of that many). */
  fastifyUrl(workers = 1): Promise<string> {
    const args = workers > 1 ? ['--workers', String(workers)] : [];
    return this.#once(`fastify-${workers}`, () => this.#startScript('bare-fastify-server.ts', args));
  }

  /** The node:http stream/pipe baseline, serving (and writing under) the main server's blob dir. */
  nodeHttpUrl(root: string): Promise<string> {
    return this.#once('node-http', () => this.#startScript('node-http-server.ts', [root]));
  }

  /** The node:http relay to presigned S3 URLs: the floor of a process between a client and S3. */
  relayUrl(): Promise<string> {
    return this.#once('node-http-relay', () => this.#startScript('node-http-relay-server.ts', []));
  }

  /** nginx serving the same root, or undefined when nginx is not installed. */
  nginxUrl(root: string): Promise<string | undefined> {
    return this.#once('nginx', async () => {
      const binary = findNginx();
      if (!binary) {
        this.note(
          "nginx is missing (not installed, and scripts/fetch-nginx.sh could not unpack Debian's package): its baselines are skipped",
        );
        return undefined;
      }
      const server = await startNginx({ binary, root, prefixDir: path.join(this.workDir, 'nginx') });
      this.#stops.push(server.stop);
      registerServer(server.url, async () => [server.pid]);
      return server.url;
    });
  }

  note(text: string): void {
    this.notes.push(text);
    console.log(`  note: ${text}`);
  }

  /** Something else to stop with the run (a receiver a scenario started in this process). */
  onClose(stop: () => Promise<void>): void {
    this.#stops.push(stop);
  }

  /** Stops every process this context started (by its own handle, never by name) and removes the temp dir. */
  async close(): Promise<void> {
    for (const stop of this.#stops.reverse()) await stop().catch((error) => console.error(error));
    await this.stores.close().catch((error) => console.error(error));
    rmSync(this.workDir, { recursive: true, force: true });
  }

  #once<T>(key: string, start: () => Promise<T>): Promise<T> {
    let started = this.#started.get(key) as Promise<T> | undefined;
    if (!started) {
      started = start();
      this.#started.set(key, started);
    }
    return started;
  }

  async #startScript(script: string, args: string[]): Promise<string> {
    const server = await startChildServer({
      command: process.execPath,
      args: [path.join(serversDir, script), ...args],
      // One log per server: the ready line is read from it.
      logPath: path.join(this.workDir, `${[script, ...args].join(' ').replace(/[^\w.-]+/g, '_')}.log`),
      ready: /listening at (\S+)/,
    });
    this.#stops.push(server.stop);
    registerServer(server.url, async () => [server.pid]);
    return server.url;
  }
}
