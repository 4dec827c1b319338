import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** One request of a load: when it started and ended (performance.now()), and how it ended. */
export type Outcome = {
  name: string;
  startedAt: number;
  endedAt: number;
  /** The HTTP status, when a response came. */
  status?: number;
  /** The error shape's `code`, when the response carried one. */
  code?: string;
  /** The socket error (ECONNRESET, …), when no response came. */
  error?: string;
};

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field
export type LoadResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; json: any };

/** Sends a request and records its outcome; answers the response, or undefined when none came. */
export type Call = (
  name: string,
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
) => Promise<LoadResponse | undefined>;

/**
 * Real HTTP load for fault tests: `concurrency` loops, each running `step` again and again
 * until stop(). Every request goes on a connection of its own (no keep-alive), so that a
 * request fails only if the server failed it, never because it reused a dead connection.
 */
export class HttpLoad {
  readonly outcomes: Outcome[] = [];
  readonly #loops: Promise<void>[];
  readonly #waiters = new Set<() => void>();
  #running = true;

  constructor(concurrency: number, step: (call: Call, loop: number) => Promise<void>) {
    const call: Call = (name, url, init) => this.#call(name, url, init);
    this.#loops = Array.from({ length: concurrency }, async (_, loop) => {
      while (this.#running) await step(call, loop);
    });
  }

  /** Resolves once `condition` holds over the outcomes so far (checked after each one). */
  until(condition: (outcomes: Outcome[]) => boolean, what: string, timeoutMs = 90_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition(this.outcomes)) return;
        this.#waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(
          new Error(
            `load: ${what} did not happen; last outcomes: ${JSON.stringify(this.outcomes.slice(-5))}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  /** Lets every loop finish its step; answers all outcomes. */
  async stop(): Promise<Outcome[]> {
    this.#running = false;
    await Promise.all(this.#loops);
    return this.outcomes;
  }

  async #call(...[name, url, init = {}]: Parameters<Call>): Promise<LoadResponse | undefined> {
    const startedAt = performance.now();
    const record = (fields: Partial<Outcome>) => {
      this.outcomes.push({ name, startedAt, endedAt: performance.now(), ...fields });
      for (const waiter of [...this.#waiters]) waiter();
    };
    try {
      const response = await send(url, init);
      record({ status: response.status, code: response.json?.code });
      return response;
    } catch (error) {
      record({ error: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
      return undefined;
    }
  }
}

function send(url: string, init: Parameters<Call>[2] = {}): Promise<LoadResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false });
    request.on('error', reject);
    // A hang guard: a request that hangs is recorded as failed instead of holding the test.
    request.setTimeout(60_000, () => request.destroy(Object.assign(new Error('hung'), { code: 'HUNG' })));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        let json: unknown;
        if (String(response.headers['content-type']).startsWith('application/json')) {
          try {
            json = JSON.parse(body.toString('utf8'));
          } catch {
            // not JSON after all: the test sees the status and the raw body
          }
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json });
      });
    });
    request.end(init.body);
  });
}
