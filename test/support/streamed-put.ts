import { request } from 'node:http';

export type StreamedPutOptions = {
  url: string;
  body: Buffer;
  /** Wrap the body in a multipart form as its `data` part (what browsers send). */
  multipart?: boolean;
  /** Send without Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
  chunkBytes?: number;
  /**
   * Called before each chunk goes out: a test may crash the server between two chunks, or
   * hold the upload open by answering a promise (the next chunk waits for it).
   */
  onChunk?: () => void | Promise<void>;
};

export type PutAnswer = { status: number; etag: string | undefined; text: string };

const boundary = 'coffer-test-boundary';

/**
 * A PUT that writes its body chunk by chunk on a fresh connection, respecting backpressure.
 * Rejects when the connection fails before the whole answer arrived (a server that crashed).
 */
export function streamedPut(options: StreamedPutOptions): Promise<PutAnswer> {
  const { body, chunkBytes = 64 * 1024 } = options;
  const parts = options.multipart
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="f.bin"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        body,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]
    : [body];
  const wire = Buffer.concat(parts);
  const headers: Record<string, string | number> = {
    'content-type': options.multipart
      ? `multipart/form-data; boundary=${boundary}`
      : 'application/octet-stream',
  };
  if (!options.chunked) headers['content-length'] = wire.length;
  return new Promise((resolve, reject) => {
    const req = request(options.url, { method: 'PUT', headers, agent: false });
    req.on('error', reject);
    req.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, text }),
      );
    });
    let offset = 0;
    const pump = () => {
      while (offset < wire.length) {
        const held = options.onChunk?.();
        const chunk = wire.subarray(offset, offset + chunkBytes);
        offset += chunk.length;
        if (held) return void held.then(() => (req.write(chunk) ? pump() : req.once('drain', pump)));
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}
