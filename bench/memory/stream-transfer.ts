import { request } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * One HTTP request whose body streams from `body` and whose answer is counted and dropped:
 * the client never holds a whole transfer, so only the server's memory is under test.
 */
export function streamTransfer(options: {
  url: string;
  method: 'GET' | 'PUT' | 'PATCH';
  headers?: Record<string, string>;
  body?: Readable;
}): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  text: string;
}> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      options.url,
      { method: options.method, headers: options.headers },
      (response) => {
        let bytes = 0;
        let text = '';
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (text.length < 1024) text += chunk.toString('utf8', 0, Math.min(chunk.length, 1024));
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes, text }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    if (options.body) pipeline(options.body, outgoing).catch(reject);
    else outgoing.end();
  });
}
