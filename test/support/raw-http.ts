import { connect } from 'node:net';

// HTTP/1.1 at the byte level, for cases no HTTP client would send: a request is bytes written
// to a socket, its answer whatever bytes come back before the server closes.

export type RawExchange = {
  /** Everything the server sent. */
  received: Buffer;
  /** How it ended: the server closed, the client had all it waited for, or the wait ran out. */
  ending: 'closed by the server' | 'answered' | 'timed out';
};

/**
 * Writes the chunks (waiting `pauseMs` between them) and collects what the server answers
 * until it closes, or until `timeoutMs`. Without `isComplete` the client then half-closes (it
 * will send nothing more); with it, the client keeps the connection open and hangs up itself
 * once what it received is complete.
 */
export function exchangeRaw(
  address: { host: string; port: number },
  chunks: Buffer[],
  options: { pauseMs?: number; timeoutMs?: number; isComplete?: (received: Buffer) => boolean } = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let settled = false;
    const finish = (ending: RawExchange['ending']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(received), ending });
    };
    const timer = setTimeout(() => finish('timed out'), options.timeoutMs ?? 15_000);
    const socket = connect(address.port, address.host, async () => {
      for (const [index, chunk] of chunks.entries()) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (options.pauseMs && index < chunks.length - 1)
          await new Promise((r) => setTimeout(r, options.pauseMs));
      }
      if (!options.isComplete) socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (options.isComplete?.(Buffer.concat(received))) finish('answered');
    });
    // A reset after the server answered and closed is still a close by the server.
    socket.on('error', () => finish('closed by the server'));
    socket.on('close', () => finish('closed by the server'));
  });
}

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * Splits what a server sent into responses, given the methods of the requests in order (a
 * HEAD's answer has no body). Throws when the bytes are not a sequence of HTTP/1.1 responses.
 */
export function parseResponses(bytes: Buffer, methods: string[]): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', at);
    if (headEnd === -1)
      throw new Error(
        `an incomplete response head: ${JSON.stringify(bytes.subarray(at).toString('latin1'))}`,
      );
    const [statusLine = '', ...lines] = bytes.subarray(at, headEnd).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine)?.[1];
    if (!status) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    at = headEnd + 4;
    const method = methods[responses.length] ?? 'GET';
    const code = Number(status);
    let body: Buffer = Buffer.alloc(0);
    if (method === 'HEAD' || code === 204 || code === 304 || code < 200) {
      // no body
    } else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      ({ body, at } = readChunked(bytes, at));
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = bytes.subarray(at, at + length);
      if (body.length < length) throw new Error(`a body cut short: ${body.length} of ${length} bytes`);
      at += length;
    } else {
      body = bytes.subarray(at);
      at = bytes.length;
    }
    responses.push({ status: code, headers, body: body.toString('utf8') });
  }
  return responses;
}

function readChunked(bytes: Buffer, start: number): { body: Buffer; at: number } {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd === -1) throw new Error('a chunked body cut short');
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a bad chunk size in a response');
    at = lineEnd + 2;
    if (size === 0) {
      const end = bytes.indexOf('\r\n\r\n', at - 2);
      return { body: Buffer.concat(parts), at: end === -1 ? bytes.length : end + 4 };
    }
    parts.push(bytes.subarray(at, at + size));
    at += size + 2;
  }
}
