import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy that cuts one download midway, as a dropped network would: on the first
 * connection that asks for a path starting with `pathPrefix`, once `cutAfterBytes` bytes of the
 * answer have gone back to the client, both sides are destroyed. Everything else, before and
 * after, is a plain pipe. It listens before it knows its target (`setTarget`), so a server can
 * be started with the proxy's URL as its public URL (the links it signs then go through it).
 */
export async function startDownloadCuttingProxy(options: { pathPrefix: string; cutAfterBytes: number }) {
  const sockets = new Set<Socket>();
  let target: URL | undefined;
  let cuts = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(target!.port), target!.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {}); // a cut connection errors on the other side
      socket.on('close', () => sockets.delete(socket));
    }
    let armed = false;
    let answered = 0;
    client.on('data', (chunk: Buffer) => {
      if (cuts === 0 && chunk.toString('latin1').includes(`GET ${options.pathPrefix}`)) armed = true;
      upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('data', (chunk: Buffer) => {
      if (!armed) return void client.write(chunk);
      answered += chunk.length;
      if (answered <= options.cutAfterBytes) return void client.write(chunk);
      cuts += 1;
      armed = false;
      client.write(chunk.subarray(0, chunk.length - (answered - options.cutAfterBytes)));
      client.destroy();
      upstream.destroy();
    });
    upstream.on('end', () => client.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no proxy address');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    setTarget: (serverUrl: string) => {
      target = new URL(serverUrl);
    },
    cuts: () => cuts,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
