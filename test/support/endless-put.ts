import { request } from 'node:http';

export type EndlessPutAnswer = {
  status: number;
  body: { code?: string; message?: string };
  sentBytes: number;
};

/**
 * A PUT whose body never ends (chunked, 64 KiB at a time, respecting backpressure): it can
 * only be answered by a server that refuses it before its end, which is what a cut-off
 * upload must do. Stops sending once the answer arrives.
 */
export function endlessPut(url: string, headers: Record<string, string> = {}): Promise<EndlessPutAnswer> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = request(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', ...headers },
      agent: false,
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.on('response', (response) => {
      answered = true;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (data: string) => {
        text += data;
      });
      response.on('error', () => {});
      response.on('end', () => {
        req.destroy();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || '{}'), sentBytes });
      });
    });
    const send = () => {
      while (!answered && !req.destroyed) {
        sentBytes += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', send);
          return;
        }
      }
    };
    send();
  });
}
