import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { responseBodyHeadBytes } from './response-body-head.ts';
import type { WebhookTarget } from './webhook-target.ts';

/**
 * How many bytes of an answer's body are kept: the attempt's body head, and one byte more to
 * see whether its cut falls inside a character (response-body-head.ts).
 */
const keptBytes = responseBodyHeadBytes + 1;

export type PostOnceOptions = {
  target: WebhookTarget;
  headers: OutgoingHttpHeaders;
  body: string;
  /** Resolves the host (http.request's `lookup`); the guard against private addresses lives here. */
  lookup?: LookupFunction;
  /** Ends the attempt wherever it is: connecting, sending or reading the answer. */
  signal: AbortSignal;
  maxResponseBytes: number;
  /** How much of the body the answer keeps (default: the head of a delivery's attempt; the admission hook reads its JSON). */
  keepBytes?: number;
};

/** An answer: its status, headers, the first bytes of its body and how many bytes were read. */
export type PostAnswer = {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's first keepBytes bytes (default responseBodyHeadBytes + 1; fewer when it had fewer). */
  bodyHead: Buffer;
  /** The body's bytes read, up to maxResponseBytes (more means more than the head). */
  bodyBytes: number;
};

/**
 * POSTs once and resolves with the answer once its body ended or maxResponseBytes of it were
 * read: then the socket is destroyed, so a receiver cannot keep Coffer reading. Never follows a
 * redirect (node:http does not). Rejects with the transport error, or the signal's reason.
 */
export function postOnce(options: PostOnceOptions): Promise<PostAnswer> {
  const { signal } = options;
  const keepBytes = options.keepBytes ?? keptBytes;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const request = openRequest(options);
    let response: IncomingMessage | undefined;
    const excerpt: Buffer[] = [];
    let readBytes = 0;
    let settled = false;
    // Listeners stay attached after settling: a late socket error must find a handler, not crash.
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      response?.destroy();
      if (error !== undefined) return reject(error);
      const status = response?.statusCode ?? 0;
      resolve({
        status,
        headers: response?.headers ?? {},
        bodyHead: Buffer.concat(excerpt).subarray(0, keepBytes),
        bodyBytes: readBytes,
      });
    };
    const onAbort = () => settle(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', settle);
    request.on('close', () => response || settle(closedEarly('before an answer')));
    request.on('response', (answer) => {
      response = answer;
      answer.on('error', settle);
      answer.on('data', (chunk: Buffer) => {
        if (readBytes < keepBytes) excerpt.push(chunk.subarray(0, keepBytes - readBytes));
        readBytes += chunk.length;
        if (readBytes >= options.maxResponseBytes) settle();
      });
      answer.on('end', () => settle());
      answer.on('close', () => settle(answer.complete ? undefined : closedEarly('before the answer ended')));
    });
    request.end(options.body);
  });
}

function openRequest({ target, headers, lookup }: PostOnceOptions): http.ClientRequest {
  return (target.url.protocol === 'https:' ? https : http).request({
    method: 'POST',
    hostname: target.hostname,
    port: target.url.port || undefined,
    path: `${target.url.pathname}${target.url.search}`,
    headers,
    lookup,
    // Security: a pooled socket might have been connected without the guarded lookup; each
    // attempt opens its own connection.
    agent: false,
  });
}

function closedEarly(when: string): Error {
  return Object.assign(new Error(`the connection closed ${when}`), { code: 'ERR_CLOSED_EARLY' });
}
