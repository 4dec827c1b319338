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
 * Streams `totalBytes` of filler after `head` as fast as the server reads it, stopping once
 * the server closes; answers how many bytes it managed to write and what came back.
 */
export function flood(
  address: Address,
  head: string,
  totalBytes: number,
): Promise<{ written: number; received: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    let written = 0;
    let received = '';
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const socket = connect(address.port, address.host, async () => {
      socket.write(head);
      while (written < totalBytes && !socket.destroyed) {
        const ok = socket.write(chunk);
        written += chunk.length;
        if (!ok)
          await Promise.race([
            new Promise((r) => socket.once('drain', r)),
            new Promise((r) => socket.once('close', r)),
          ]);
        else await sleep(0);
      }
      if (!socket.destroyed) socket.end();
    });
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ written, received, closedByServer: written < totalBytes }));
  });
}

/** The median time of `count` sequential calls, in milliseconds. */
export async function medianLatencyMs(count: number, call: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
