import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StaticFile = { type: string; body: string | Uint8Array };

/**
 * An app's own site on another origin than Coffer's (`http://127.0.0.1:<port>`), serving fixed
 * files by path (404 for anything else): the pages browser tests drive.
 */
export async function startStaticSite(
  files: Record<string, StaticFile>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const site = http.createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://site').pathname];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  site.on('error', () => {});
  site.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        site.closeAllConnections();
        site.close(() => resolve());
      }),
  };
}
