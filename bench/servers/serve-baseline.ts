import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * Serves a baseline's handler on a free loopback port, as the bench's baseline servers all do:
 * a failed request answers 500 (or is cut once its headers are gone), the address is printed
 * for the bench to read, and SIGTERM or SIGINT closes every connection.
 */
export function serveBaseline(handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>) {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) response.writeHead(500).end(error.message);
      else response.destroy(error);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') console.log(`listening at http://127.0.0.1:${address.port}`);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      server.close();
      server.closeAllConnections();
    });
}
