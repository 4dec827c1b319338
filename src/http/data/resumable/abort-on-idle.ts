import type { IncomingMessage } from 'node:http';

/** A chunk whose bytes stop coming for this long ends as if its client had gone away. */
const idleMs = 60_000;

/**
 * Runs `work` (which reads the request's body) with an idle deadline on the connection. A
 * half-open connection (a phone that lost its network mid-chunk) otherwise holds the upload's
 * lease until the request deadline, an hour; cut off, the store keeps what had arrived and
 * the client resumes from there.
 */
export async function abortOnIdle<T>(request: IncomingMessage, work: () => Promise<T>): Promise<T> {
  const socket = request.socket;
  const onIdle = () => request.destroy(new Error('the upload chunk stopped arriving'));
  socket.setTimeout(idleMs);
  socket.on('timeout', onIdle);
  try {
    return await work();
  } finally {
    socket.off('timeout', onIdle);
    socket.setTimeout(0);
  }
}
