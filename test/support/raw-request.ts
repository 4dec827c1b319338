import { Agent, request } from 'node:http';

export type RawResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field
  body: any;
  text: string;
};

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * One request whose path and query go on the wire exactly as given: fetch() would normalize
 * them (dot segments, percent-encoding), which tampering tests must not have done for them.
 */
export function rawRequest(
  baseUrl: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { agent, host: hostname, port, method: options.method, path: options.path, headers: options.headers },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk) => (text += chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body, text });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** Closes the kept-alive connections, so a test file leaves no sockets behind. */
export function closeRawConnections(): void {
  agent.destroy();
}
