import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Settings for webhook tests: loopback receivers, retries a second apart (three), rounds every 20 ms. */
export const quickWebhookEnv = {
  COFFER_WEBHOOK_ALLOW_PRIVATE: 'true',
  COFFER_WEBHOOK_RETRY_SECONDS: '1,1,1',
  COFFER_EVENT_DELIVERY_INTERVAL_MS: '20',
  COFFER_WEBHOOK_TIMEOUT_SECONDS: '5',
} as const;

export type ReceivedWebhook = {
  headers: IncomingHttpHeaders;
  body: string;
  type: string;
  data: Record<string, unknown>;
};

/**
 * A webhook receiver on loopback for the events tests: answers what `answerWith` says (200 by
 * default) and keeps the deliveries it accepted (2xx), in arrival order.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let answer = () => 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const status = answer();
      if (status >= 200 && status < 300) {
        const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
        received.push({ headers: request.headers, body, type: parsed.type, data: parsed.data });
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answerWith(status: () => number) {
      answer = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `read` until it answers something other than undefined. */
export async function waitUntil<T>(
  read: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
