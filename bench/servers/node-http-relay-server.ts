/**
 * The floor of any gateway in front of S3 (issue 44 item 5): plain node:http, no framework, no
 * checks, relaying one request to a presigned S3 URL and the answer back. GET /?to=<url> pipes
 * S3's answer to the client; PUT /?to=<url> pipes the client's body into a PUT to S3 (a
 * presigned PUT, whose payload is unsigned) and answers S3's status and ETag. What Coffer does
 * beyond this (links, records, checks, hashing) is Coffer's cost; what this costs over a plain
 * S3 client is the cost of a process in the middle: every byte received and sent once more.
 * Run as its own process: `node bench/servers/node-http-relay-server.ts`.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { serveBaseline } from './serve-baseline.ts';

/** The upstream request's answer, once its headers have come. */
function send(to: string, method: string, headers: Record<string, string>) {
  const upstream = httpRequest(to, { method, headers });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    upstream.once('response', resolve);
    upstream.once('error', reject);
  });
  return { upstream, answered };
}

async function relay(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const to = new URL(request.url ?? '/', 'http://x').searchParams.get('to');
  if (!to) throw new Error('no ?to= URL');
  if (request.method === 'PUT') {
    const headers: Record<string, string> = {};
    for (const name of ['content-length', 'content-type'])
      if (request.headers[name]) headers[name] = String(request.headers[name]);
    const { upstream, answered } = send(to, 'PUT', headers);
    await pipeline(request, upstream);
    const answer = await answered;
    answer.resume();
    response.writeHead(answer.statusCode ?? 502, { etag: answer.headers.etag ?? '' }).end();
    return;
  }
  const { upstream, answered } = send(to, 'GET', {});
  upstream.end();
  const answer = await answered;
  response.writeHead(answer.statusCode ?? 502, {
    'content-type': answer.headers['content-type'] ?? 'application/octet-stream',
    'content-length': answer.headers['content-length'] ?? '0',
  });
  await pipeline(answer, response);
}

serveBaseline(relay);
