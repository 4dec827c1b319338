import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy to a test server that stalls an upload as a dead network would: once clients
 * have sent `holdAfterBytes` bytes through it, it forwards nothing more and stops reading (the
 * client's sends back up; nothing times out). `release()` cuts the connections it holds (the
 * server gets what was forwarded and the end of the connection, as after a dropped network)
 * and lets every later byte through: release after killing the client, and the server sees
 * the client's interrupted request end.
 */
export type HoldingProxy = Awaited<ReturnType<typeof startHoldingProxy>>;

export async function startHoldingProxy(target: string, holdAfterBytes: number) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const heldClients = new Set<Socket>();
  let sentBytes = 0;
  let released = false;
  let onHeld = () => {};
  const held = new Promise<void>((resolve) => {
    onHeld = resolve;
  });
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {}); // a closed side errors the other
      socket.on('close', () => sockets.delete(socket));
    }
    // What was forwarded reaches the server, then the end of the request's connection.
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      if (released) return void upstream.write(chunk);
      const room = holdAfterBytes - sentBytes;
      sentBytes += chunk.length;
      if (room >= chunk.length) return void upstream.write(chunk);
      if (room > 0) upstream.write(chunk.subarray(0, room));
      client.pause();
      heldClients.add(client);
      onHeld();
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    /** The proxy's origin: a server whose public URL it is issues links that go through it. */
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves once the first byte past `holdAfterBytes` was held back. */
    held,
    release: () => {
      released = true;
      for (const client of heldClients) client.destroy();
    },
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
