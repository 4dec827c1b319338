import type { FastifyInstance } from 'fastify';

/** What the hook needs of the database's write watch (persistence/write-watch.ts). */
type SharedWrites = { shared(): Promise<void> | undefined };

/** Methods that change nothing (RFC 9110 safe methods): their answers wait for no one. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With `serve --workers N` (N > 1), a change is answered only once every sibling worker has
 * dropped the file records it trusted (supervisor/write-relay.ts): whoever asks any worker
 * next is refused or served as the change says. Installed only with siblings, so a single
 * process and the read path pay nothing.
 */
export function installWritesShared(app: FastifyInstance, writes: SharedWrites, workers: number): void {
  if (workers <= 1) return;
  app.addHook('onSend', async (request, _reply, payload) => {
    if (safeMethods.has(request.method)) return payload;
    await writes.shared();
    return payload;
  });
}
