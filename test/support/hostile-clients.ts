import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { exchangeRaw, type RawExchange } from './raw-http.ts';

// Clients that hold a server's resources on purpose: they dribble bytes, idle, or send more
// than they declared. Each resolves once the server has let go of it.

export type Address = { host: string; port: number };

/** Sends `text` one byte at a time, `pauseMs` apart, until done or the server hangs up. */
export function dribble(address: Address, text: string | Buffer, pauseMs: number): Promise<RawExchange> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  const chunks = Array.from(bytes, (byte) => Buffer.from([byte]));
  // The client never half-closes: a slow client is still sending as far as the server knows.
  return exchangeRaw(address, chunks, { pauseMs, timeoutMs: 120_000, isComplete: () => false });
}

/** Opens `count` connections that send nothing; resolves once all are open. */
export async function openIdleConnections(address: Address, count: number): Promise<Socket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(address.port, address.host, () => resolve(socket));
          socket.on('error', reject);
        }),
    ),
  );
}

/** Waits until the server has closed every one of the sockets (or `timeoutMs` passes). */
export async function waitUntilClosedByServer(sockets: Socket[], timeoutMs = 60_000): Promise<void> {
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve, reject) => {
          if (socket.closed) return resolve();
          const timer = setTimeout(
            () => reject(new Error('the server kept an idle connection open')),
            timeoutMs,
          );
          socket.on('error', () => {});
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          // Reading lets the socket see the server's FIN.
          socket.resume();
        }),
    ),
  );
}

/**
 * Streams filler after `head` as fast as the server takes it (at most a chunk a timer tick)
 * until the server hangs up or `timeoutMs` passes; answers what came back and whether the
 * server was the one to close.
 */
export function flood(
  address: Address,
  head: string,
  timeoutMs = 60_000,
): Promise<{ written: number; received: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    let written = 0;
    let received = '';
    const deadline = Date.now() + timeoutMs;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const socket = connect(address.port, address.host, async () => {
      socket.write(head);
      while (!socket.destroyed && Date.now() < deadline) {
        const drained = socket.write(chunk);
        written += chunk.length;
        if (drained) await sleep(1);
        else
          await new Promise<void>((resolve) => {
            const done = () => {
              socket.off('drain', done).off('close', done);
              resolve();
            };
            socket.once('drain', done).once('close', done);
          });
      }
      socket.destroy();
    });
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ written, received, closedByServer: Date.now() < deadline }));
  });
}

/**
 * Makes `count` calls one after another; each must settle within `hangGuardMs` or the test
 * fails naming it. Answers each call's time in milliseconds, for information only: on a
 * loaded machine the times follow the load, not the server, so no test asserts on them.
 */
export async function timeCalls(
  count: number,
  call: () => Promise<void>,
  hangGuardMs: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 1; i <= count; i++) {
    const started = performance.now();
    await settleWithin(hangGuardMs, call(), `call ${i} of ${count}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** The median of some times (the upper one of an even count). */
export function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `work`, or a failure naming `what` once `ms` pass without it settling (a hang guard). */
async function settleWithin<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s (a hang)`)), ms);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}
