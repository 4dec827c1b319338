import { once } from 'node:events';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a test receiver got it. */
export type ReceivedRequest = { path: string; headers: IncomingHttpHeaders; body: Buffer };

/** A real HTTP server for the sender's tests: it records every connection and request. */
export type LocalReceiver = {
  port: number;
  url(path?: string): string;
  requests: ReceivedRequest[];
  connectionCount(): number;
  close(): Promise<void>;
};

/**
 * Starts a receiver on `host` (127.0.0.1 unless told) whose `answer` sees each request once its
 * body has arrived. Test support, not used by the server.
 */
export async function startLocalReceiver(
  answer: (request: IncomingMessage, response: ServerResponse, received: ReceivedRequest) => void,
  options: { host?: string; port?: number } = {},
): Promise<LocalReceiver> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const received = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) };
    requests.push(received);
    answer(request, response, received);
  });
  server.on('connection', () => connections++);
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = (options.host ?? '127.0.0.1').includes(':')
    ? `[${options.host}]`
    : (options.host ?? '127.0.0.1');
  return {
    port,
    url: (path = '/hook') => `http://${host}:${port}${path}`,
    requests,
    connectionCount: () => connections,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
