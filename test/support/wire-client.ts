import { Agent, type IncomingHttpHeaders, request } from 'node:http';

/** A request exactly as it goes on the wire: any method, any header, any bytes. */
export type WireRequest = {
  method: string;
  /** Path and query, sent as they are. */
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  /** Send the body with chunked transfer encoding instead of a Content-Length. */
  chunked?: boolean;
  /** Send no Host header (HTTP/1.1 requires one). */
  omitHost?: boolean;
};

export type WireAnswer =
  | { kind: 'answered'; status: number; headers: IncomingHttpHeaders; body: string }
  | { kind: 'closed'; error: string };

/**
 * Sends many requests fast over a pool of keep-alive connections (node:http lets a test send
 * headers and methods that fetch refuses). A connection the server closed while idle is
 * retried once, as Node's documentation advises; any other failure is answered as `closed`.
 */
export class WireClient {
  readonly #agent: Agent;
  readonly #origin: URL;
  readonly #timeoutMs: number;

  constructor(baseUrl: string, options: { connections: number; timeoutMs?: number }) {
    this.#origin = new URL(baseUrl);
    this.#agent = new Agent({ keepAlive: true, maxSockets: options.connections });
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  async send(wire: WireRequest): Promise<WireAnswer> {
    const first = await this.#sendOnce(wire);
    return first.retry ? (await this.#sendOnce(wire)).answer : first.answer;
  }

  #sendOnce(wire: WireRequest): Promise<{ answer: WireAnswer; retry: boolean }> {
    return new Promise((resolve) => {
      const outgoing = request({
        agent: this.#agent,
        host: this.#origin.hostname,
        port: this.#origin.port,
        method: wire.method,
        path: wire.path,
        headers: withLength(wire),
        setHost: !wire.omitHost,
        timeout: this.#timeoutMs,
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${this.#timeoutMs} ms`)));
      outgoing.on('error', (error: Error & { code?: string }) =>
        resolve({
          answer: { kind: 'closed', error: `${error.code ?? ''} ${error.message}` },
          retry: outgoing.reusedSocket && error.code === 'ECONNRESET',
        }),
      );
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', () => {});
        response.on('end', () =>
          resolve({
            answer: {
              kind: 'answered',
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            },
            retry: false,
          }),
        );
        // A response cut short by the server (a broken download) ends in 'close' without 'end'.
        response.on('close', () => {
          if (!response.complete)
            resolve({ answer: { kind: 'closed', error: 'the response was cut short' }, retry: false });
        });
      });
      if (wire.body && wire.chunked) {
        outgoing.write(wire.body);
        outgoing.end();
      } else outgoing.end(wire.body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/**
 * Node frames the body of a HEAD (and chunks no GET) by itself only for some methods: say how,
 * so that the bytes of any method stay one request.
 */
function withLength(wire: WireRequest): WireRequest['headers'] {
  if (!wire.body || Object.keys(wire.headers).some((name) => name.toLowerCase() === 'content-length'))
    return wire.headers;
  if (wire.chunked) return { ...wire.headers, 'transfer-encoding': 'chunked' };
  return { ...wire.headers, 'content-length': String(wire.body.length) };
}
