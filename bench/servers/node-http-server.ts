/**
 * Byte ceilings with plain node:http, no framework: GET /<path> streams a file under the root
 * directory from disk in 1 MiB reads (Coffer's read size); GET /memory/<path> answers it from
 * memory once read (as Coffer answers small files: the 1 KiB ceiling); PUT pipes the body to a new file there, fsynced on close as Coffer's
 * blob store does (durability is part of the job), then unlinks it so runs do not fill the disk.
 * Run as its own process: `node bench/servers/node-http-server.ts <root-dir>`.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { serveBaseline } from './serve-baseline.ts';

const root = path.resolve(process.argv[2] ?? '.');
const uploads = path.join(root, '.baseline-uploads');
await mkdir(uploads, { recursive: true });

/** Coffer's blob store reads large files 1 MiB at a time (fs-blob-store.ts). */
const readSize = 1024 * 1024;
const memoryPrefix = '/memory/';
const inMemory = new Map<string, Buffer>();

async function download(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
  if (pathname.startsWith(memoryPrefix)) {
    const relative = pathname.slice(memoryPrefix.length - 1);
    let bytes = inMemory.get(relative);
    if (!bytes) {
      bytes = await readFile(path.join(root, relative));
      inMemory.set(relative, bytes);
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    response.end(bytes);
    return;
  }
  const file = path.join(root, pathname);
  const info = await stat(file);
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': info.size });
  await pipeline(createReadStream(file, { highWaterMark: Math.min(info.size, readSize) || 1 }), response);
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

serveBaseline((request, response) =>
  request.method === 'PUT' ? upload(request, response) : download(request, response),
);
