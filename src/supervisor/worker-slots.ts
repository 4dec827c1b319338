import cluster, { type Worker } from 'node:cluster';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { answerMetricsRequests } from '../metrics/cluster-metrics.ts';
import type { ConnectionDispatcher } from './connection-dispatcher.ts';
import type { PrimaryLog } from './primary-log.ts';
import { restartDelayMs, stableAfterMs } from './restart-delay.ts';
import { isMessage, type ListenMessage } from './worker-messages.ts';
import { WriteRelay } from './write-relay.ts';

type Slot = {
  worker?: Worker;
  /** When the slot's current worker started serving (undefined until it does). */
  servedAt?: number;
  quickExitsInARow: number;
  restart?: NodeJS.Timeout;
};

export type WorkerSlotsOptions = {
  count: number;
  log: PrimaryLog;
  dispatcher: ConnectionDispatcher;
  /** The primary's private (0700) directory, where each worker listens on its own socket. */
  runtimeDir: string;
  publicUrl: string;
};

/**
 * The primary's N places for a worker. Each holds one live worker: one that exits is logged
 * (with its pid) and replaced, at once the first time, with a growing delay if it keeps dying.
 * Every start, readiness and exit is logged with the worker's pid (`workerPid`).
 */
export class WorkerSlots {
  readonly #options: WorkerSlotsOptions;
  readonly #slots: Slot[];
  readonly #served = new Set<Slot>();
  /** Workers serving now (ready, not exited). */
  readonly #serving = new Set<Worker>();
  /** Tells each worker's writes to the others that serve (write-relay.ts). */
  readonly #writes = new WriteRelay((worker) => [...this.#serving].filter((other) => other !== worker));
  #stopping = false;
  #allServed: () => void = () => {};
  #failedToStart: (error: Error) => void = () => {};

  constructor(options: WorkerSlotsOptions) {
    this.#options = options;
    this.#slots = Array.from({ length: options.count }, () => ({ quickExitsInARow: 0 }));
  }

  /**
   * Forks every worker. Resolves once each slot has served; rejects if a worker dies before
   * the service ever served (a configuration error: replacing it would only loop).
   */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#allServed = resolve;
      this.#failedToStart = reject;
      for (const slot of this.#slots) this.#fork(slot);
    });
  }

  /** SIGTERM to every worker (each drains its connections); resolves once all have exited. */
  async stop(): Promise<void> {
    this.#stopping = true;
    const alive = this.#slots.flatMap((slot) => {
      clearTimeout(slot.restart);
      return slot.worker && !slot.worker.isDead() ? [slot.worker] : [];
    });
    await Promise.all(
      alive.map((worker) => {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.process.kill('SIGTERM');
        return exited;
      }),
    );
  }

  /** The operator insists (a second signal): workers stop now, in-flight requests or not. */
  kill(): void {
    for (const slot of this.#slots)
      if (slot.worker && !slot.worker.isDead()) slot.worker.process.kill('SIGKILL');
  }

  #fork(slot: Slot): void {
    const { log, dispatcher, runtimeDir, publicUrl } = this.#options;
    const worker = cluster.fork();
    const workerPid = worker.process.pid;
    const socketPath = path.join(runtimeDir, `worker-${workerPid}.sock`);
    slot.worker = worker;
    slot.servedAt = undefined;
    log('info', `worker ${workerPid} started`, { workerPid });
    // A send to a worker that just died fails on the channel: that worker's exit handles it.
    worker.on('error', (error) => log('warn', `worker ${workerPid}: ${error.message}`, { workerPid }));
    answerMetricsRequests(worker);
    this.#writes.attach(worker);
    worker.on('message', (message) => {
      if (isMessage(message, 'coffer:booted')) {
        // One collector per node: the first slot's worker (passes are safe side by side, but
        // N of them would only repeat the same listing).
        const collectBlobs = this.#slots[0] === slot;
        const shareWrites = this.#slots.length > 1;
        const listen: ListenMessage = {
          type: 'coffer:listen',
          socketPath,
          publicUrl,
          collectBlobs,
          shareWrites,
        };
        worker.send(listen);
      }
      if (!isMessage(message, 'coffer:ready')) return;
      dispatcher.add(worker);
      this.#serving.add(worker);
      slot.servedAt = Date.now();
      log('info', `worker ${workerPid} serving`, { workerPid });
      this.#served.add(slot);
      if (this.#served.size === this.#slots.length) this.#allServed();
    });
    worker.once('exit', (code, signal) => {
      dispatcher.remove(worker);
      this.#serving.delete(worker);
      rm(socketPath, { force: true }).catch(() => {});
      this.#onExit(slot, { workerPid, how: signal ? `signal ${signal}` : `code ${code}` });
    });
  }

  #onExit(slot: Slot, exit: { workerPid: number | undefined; how: string }): void {
    const { log } = this.#options;
    const { workerPid, how } = exit;
    if (this.#stopping) {
      log('info', `worker ${workerPid} stopped (${how})`, { workerPid });
      return;
    }
    if (this.#served.size < this.#slots.length && !this.#served.has(slot)) {
      log('error', `worker ${workerPid} exited (${how}) before serving`, { workerPid });
      this.#failedToStart(new Error(`a server process exited (${how}) before serving; see above`));
      return;
    }
    // A worker that never served, or not for long, is crash-looping; one that served a while is not.
    const quick = slot.servedAt === undefined || Date.now() - slot.servedAt < stableAfterMs;
    slot.quickExitsInARow = quick ? slot.quickExitsInARow + 1 : 1;
    const restartInMs = restartDelayMs(slot.quickExitsInARow);
    log('error', `worker ${workerPid} exited (${how}); starting another in ${restartInMs} ms`, {
      workerPid,
      restartInMs,
    });
    slot.restart = setTimeout(() => this.#fork(slot), restartInMs);
  }
}
