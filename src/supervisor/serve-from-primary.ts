import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type BootedMessage, isMessage, type ListenMessage, type ReadyMessage } from './worker-messages.ts';

/**
 * In a worker: takes the primary's instructions, then serves the connections the primary
 * accepts and hands over. The app listens on a private Unix socket (in a 0700 directory of
 * the primary's) that no client uses: a listening server is what makes Node enforce its
 * header and request timeouts and what app.close() drains. Sets the public URL links are
 * built on before the first request; returns the primary's instructions.
 */
export async function serveFromPrimary(
  app: FastifyInstance,
  publicUrl: { value: string },
): Promise<ListenMessage> {
  const instructions = await nextListenMessage();
  publicUrl.value = instructions.publicUrl;
  const { socketPath } = instructions;
  await app.listen({
    path: socketPath,
    exclusive: true,
    listenTextResolver: () => 'serving the connections the primary hands over',
  });
  process.on('message', (message, handle) => {
    if (!isMessage(message, 'coffer:connection') || handle === undefined) return;
    const socket = handle as Socket;
    app.server.emit('connection', socket);
    // The primary accepted it paused: reading starts here, in the process that serves it.
    socket.resume();
  });
  const ready: ReadyMessage = { type: 'coffer:ready' };
  process.send?.(ready);
  return instructions;
}

function nextListenMessage(): Promise<ListenMessage> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (!isMessage(message, 'coffer:listen')) return;
      process.off('message', onMessage);
      resolve(message);
    };
    process.on('message', onMessage);
    const booted: BootedMessage = { type: 'coffer:booted' };
    process.send?.(booted);
  });
}
