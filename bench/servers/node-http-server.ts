/**
 * Byte ceilings with plain node:http, no framework: GET /<path> streams a file under the root
 * directory from disk; PUT pipes the body to a new file there, fsynced on close as Coffer's
 * blob store does (durability is part of the job), then unlinks it so runs do not fill the disk.
 * Run as its own process: `node bench/servers/node-http-server.ts <root-dir>`.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const root = path.resolve(process.argv[2] ?? '.');
const uploads = path.join(root, '.baseline-uploads');
await mkdir(uploads, { recursive: true });

async function download(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const file = path.join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
  const info = await stat(file);
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': info.size });
  await pipeline(createReadStream(file), response);
}

async function upload(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const file = path.join(uploads, `${randomUUID()}.tmp`);
  try {
    await pipeline(request, createWriteStream(file, { flush: true }));
    const { size } = await stat(file);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sizeBytes: size }));
  } finally {
    await rm(file, { force: true });
  }
}

const server = createServer((request, response) => {
  const work = request.method === 'PUT' ? upload(request, response) : download(request, response);
  work.catch((error: Error) => {
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
