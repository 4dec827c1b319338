import { rm } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { ensureDefaultProject } from '../cli/default-project.ts';
import type { Config } from '../config/config.ts';
import { toListenError } from '../config/listen-address.ts';
import { isPrettyLog } from '../config/log-format.ts';
import type { PublicUrl } from '../config/public-url.ts';
import { removeServingFile, writeServingFile } from '../config/serving-file.ts';
import { openStores } from '../wiring/open-stores.ts';
import { ConnectionDispatcher } from './connection-dispatcher.ts';
import { firstStartGuide, toGuideRecord, toGuideText } from './first-start-guide.ts';
import { type PrimaryLog, toPrimaryLog } from './primary-log.ts';
import { makeRuntimeDir } from './runtime-dir.ts';
import { WorkerSlots } from './worker-slots.ts';

/** Connections that may wait for a worker at once (all restarting); beyond, new ones are closed. */
const maxWaitingConnections = 4096;

/**
 * `coffer serve`'s primary process, whatever the worker count: it prepares the stores once,
 * owns the listening socket, and keeps `config.workers` server processes running (see
 * WorkerSlots). No bug in a worker takes the service down: it costs that worker's in-flight
 * requests. SIGTERM or SIGINT stops accepting, lets the workers drain, then resolves; a
 * second signal kills them.
 */
export async function runSupervisor(config: Config, publicUrlFor: PublicUrl): Promise<void> {
  const pretty = isPrettyLog(config.logFormat);
  const log = toPrimaryLog(config.logLevel, pretty);
  const { created } = await prepareStores(config, log);
  const runtimeDir = await makeRuntimeDir();
  // Connections wait for a worker no longer than a client may take to send its headers.
  const dispatcher = new ConnectionDispatcher({
    maxWaitMs: config.headersTimeoutSeconds * 1000,
    maxWaiting: maxWaitingConnections,
  });
  const server = createServer({ pauseOnConnect: true }, (socket) => dispatcher.dispatch(socket));
  let workers: WorkerSlots | undefined;
  const signals = new StopSignals(() => workers?.kill());
  try {
    const port = await listen(server, config, log);
    const publicUrl = publicUrlFor.at(port);
    workers = new WorkerSlots({ count: config.workers, log, dispatcher, runtimeDir, publicUrl });
    if ((await Promise.race([workers.start(), signals.received])) === undefined) {
      log('info', `Coffer ready at ${publicUrl}`, { url: publicUrl, workers: config.workers });
      // Best effort: only `coffer console` reads it, and falls back to the configured URL.
      await writeServingFile(config.dataDir, publicUrl).catch(() => {});
      if (created && config.logLevel !== 'silent') {
        const guide = firstStartGuide(config, publicUrl);
        process.stdout.write(pretty ? toGuideText(guide) : `${toGuideRecord(guide)}\n`);
      }
    }
    await signals.received;
    log('info', 'shutting down: draining workers');
  } finally {
    server.close();
    dispatcher.close();
    await workers?.stop();
    await removeServingFile(config.dataDir).catch(() => {});
    signals.dispose();
    await rm(runtimeDir, { recursive: true, force: true });
  }
}

/** Migrates the database and creates the default project, once, before any worker starts. */
async function prepareStores(config: Config, log: PrimaryLog): Promise<{ created: boolean }> {
  const { database, repositories } = await openStores(config, (line) => log('warn', line));
  try {
    return await ensureDefaultProject(repositories.projects, config.dataDir, (line) => log('info', line));
  } finally {
    await database.close();
  }
}

function listen(server: Server, config: Config, log: PrimaryLog): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(toListenError(error, config)));
    server.listen({ host: config.host, port: config.port }, () => {
      server.removeAllListeners('error');
      // Accepting can fail later (EMFILE): the server keeps listening, the primary keeps running.
      server.on('error', (error) => log('error', `accepting a connection failed: ${error.message}`));
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** SIGTERM and SIGINT: the first asks for a drain (`received` resolves), a second for `onAgain`. */
class StopSignals {
  readonly received: Promise<string>;
  readonly #listeners: Array<[NodeJS.Signals, () => void]> = [];

  constructor(onAgain: () => void) {
    let signalled = false;
    this.received = new Promise((resolve) => {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        const listener = () => {
          if (signalled) return onAgain();
          signalled = true;
          resolve(signal);
        };
        process.on(signal, listener);
        this.#listeners.push([signal, listener]);
      }
    });
  }

  dispose(): void {
    for (const [signal, listener] of this.#listeners) process.off(signal, listener);
  }
}
