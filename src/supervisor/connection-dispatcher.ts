import type { Worker } from 'node:cluster';
import type { Socket } from 'node:net';
import type { ConnectionMessage } from './worker-messages.ts';

/**
 * The primary accepts every connection and hands it to a ready worker, round robin, as
 * node:cluster does on Linux. Unlike node:cluster, the listening socket belongs to the
 * primary for good: when no worker is ready (the only one is being replaced) connections wait
 * here instead of being refused, so a crash costs only the requests that were in flight.
 */
export class ConnectionDispatcher {
  readonly #ready: Worker[] = [];
  /** Connections handed to a worker whose send has not completed yet (Node queues them). */
  readonly #sending = new Map<Worker, Set<Socket>>();
  readonly #waiting = new Map<Socket, NodeJS.Timeout>();
  readonly #maxWaitMs: number;
  readonly #maxWaiting: number;
  #next = 0;

  constructor(options: { maxWaitMs: number; maxWaiting: number }) {
    this.#maxWaitMs = options.maxWaitMs;
    this.#maxWaiting = options.maxWaiting;
  }

  /** A connection the primary accepted (paused: its bytes stay in the kernel for the worker). */
  dispatch(socket: Socket): void {
    // A client that resets while its connection waits or travels must not take the primary down.
    socket.on('error', () => socket.destroy());
    this.#route(socket);
  }

  /** The worker serves: it takes its share of connections, starting with those waiting. */
  add(worker: Worker): void {
    this.#ready.push(worker);
    this.#sending.set(worker, new Set());
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const [socket, timer] of waiting) {
      clearTimeout(timer);
      this.#route(socket);
    }
  }

  /**
   * The worker is gone. Connections still queued for it were accepted and assigned to it:
   * they were in flight, and are closed rather than left hanging.
   */
  remove(worker: Worker): void {
    this.#retire(worker);
    const sending = this.#sending.get(worker);
    for (const socket of sending ?? []) socket.destroy();
    sending?.clear();
    this.#sending.delete(worker);
  }

  /** Stop: connections still waiting for a worker are closed. */
  close(): void {
    for (const [socket, timer] of this.#waiting) {
      clearTimeout(timer);
      socket.destroy();
    }
    this.#waiting.clear();
  }

  #route(socket: Socket): void {
    if (socket.destroyed) return;
    const worker = this.#pick();
    if (worker === undefined) {
      this.#wait(socket);
      return;
    }
    const sending = this.#sending.get(worker)!;
    sending.add(socket);
    const message: ConnectionMessage = { type: 'coffer:connection' };
    // keepOpen: the primary keeps its copy until the send is written, then closes it. Node's
    // default closes it only when the worker acknowledges, and never if the worker dies
    // first: the client would hang. Once written, the worker (or, if it dies, nobody) holds it.
    worker.send(message, socket, { keepOpen: true }, (error) => {
      if (!sending.delete(socket)) return; // the worker exited first: already closed
      if (error !== null && (error as NodeJS.ErrnoException).code === 'ERR_IPC_CHANNEL_CLOSED') {
        // The channel closed before the socket left: give it to another worker.
        this.#retire(worker);
        this.#route(socket);
      } else {
        socket.destroy();
      }
    });
  }

  #retire(worker: Worker): void {
    const index = this.#ready.indexOf(worker);
    if (index !== -1) this.#ready.splice(index, 1);
  }

  #pick(): Worker | undefined {
    for (let tried = 0; tried < this.#ready.length; tried++) {
      const worker = this.#ready[this.#next++ % this.#ready.length]!;
      if (worker.isConnected()) return worker;
    }
    return undefined;
  }

  #wait(socket: Socket): void {
    if (this.#waiting.size >= this.#maxWaiting) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => {
      this.#waiting.delete(socket);
      socket.destroy();
    }, this.#maxWaitMs);
    this.#waiting.set(socket, timer);
    socket.once('close', () => {
      clearTimeout(timer);
      this.#waiting.delete(socket);
    });
  }
}
