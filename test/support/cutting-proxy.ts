import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy to a test server that cuts a connection as a train's network would: once a
 * client has sent `cutAfterBytes` bytes through it, both sides of that connection are
 * destroyed mid-request. `url(u)` rewrites a server URL to go through the proxy.
 */
export async function startCuttingProxy(target: string, cutAfterBytes: number) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let sentBytes = 0;
  let cuts = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {}); // a cut connection errors on the other side
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk: Buffer) => {
      sentBytes += chunk.length;
      if (sentBytes > cutAfterBytes) {
        cuts += 1;
        const room = chunk.length - (sentBytes - cutAfterBytes);
        if (room > 0) upstream.write(chunk.subarray(0, room));
        sentBytes = Number.NEGATIVE_INFINITY; // one cut, then the proxy is a plain pipe
        client.destroy();
        // Let the bytes already written reach the server, as a dropped network would.
        upstream.end();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no proxy address');
  return {
    url: (serverUrl: string) => {
      const rewritten = new URL(serverUrl);
      rewritten.host = `127.0.0.1:${address.port}`;
      return rewritten.toString();
    },
    cuts: () => cuts,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
