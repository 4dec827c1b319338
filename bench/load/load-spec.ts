/**
 * What the bench hands the load generator's own process (bench/load/load-process.ts): every
 * request of a run written up front to a temporary directory, so that nothing the bench does
 * during the run (seeding, pools, building requests) counts as the load generator's CPU.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Method = 'GET' | 'POST' | 'PUT';
export type LoadRequest = {
  method?: Method;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
};

/** A request as written to the spec: a body as text, as base64 (small bytes), or as a file read once. */
export type WireRequest = Omit<LoadRequest, 'body'> & {
  body?: string;
  bodyBase64?: string;
  bodyFile?: string;
};

export type LoadSpec = {
  url: string;
  connections: number;
  amount?: number;
  durationSeconds?: number;
  /** The request, or the fields every listed one starts from. */
  base: WireRequest;
  /**
   * Present when requests vary: the distinct overrides of `base`, sent in the order of the
   * uint32 indexes in `orderFile`, each listed one used once; `cycle` (one distinct override,
   * a generator that always answers the same request) repeats it for the whole run.
   */
  distinct?: WireRequest[];
  orderFile?: string;
  cycle?: boolean;
  /** Sent, and counted as a failure, once the list has run out (a 404 on every server benched). */
  exhaustedPath: string;
};

/** What the load process prints on stdout. */
export type LoadProcessResult = {
  requests2xx: number;
  non2xx: number;
  errors: number;
  busySeconds: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** The load process's own CPU (every thread) from its first request to its last answer. */
  cpuSeconds: number;
  /** Requests asked for past the end of the list (each sent to `exhaustedPath`). */
  exhausted: number;
};

/**
 * Requests listed for a duration run whose requests vary: more than any server here has
 * answered per second (bare Fastify's 44k req/s is the highest recorded rate), times the
 * duration, and never more than `maxListedRequests` (memory and the time to write them).
 */
export const listedRequestsPerSecond = 50_000;
export const maxListedRequests = 500_000;
/** Bodies at most this long are written inline (base64); longer ones go to a file of their own. */
const inlineBodyBytes = 64 * 1024;

export function listLength(options: { amount?: number; durationSeconds?: number }): number {
  if (options.amount) return options.amount;
  return Math.min(maxListedRequests, Math.ceil((options.durationSeconds ?? 5) * listedRequestsPerSecond));
}

/**
 * Large bodies, one file per Buffer (by identity: a 256 MiB PUT body is one Buffer reused by
 * every run), kept for the bench's life and removed when it exits.
 */
const bodyFiles = new WeakMap<Buffer, string>();
let bodiesDir: string | undefined;

function bodyFileOf(body: Buffer): string {
  let file = bodyFiles.get(body);
  if (file) return file;
  if (!bodiesDir) {
    const dir = mkdtempSync(path.join(tmpdir(), 'coffer-load-bodies-'));
    bodiesDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  file = path.join(bodiesDir, `body-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, body);
  bodyFiles.set(body, file);
  return file;
}

export function toWire(request: LoadRequest): WireRequest {
  const { body, ...rest } = request;
  if (body === undefined || typeof body === 'string') return { ...rest, ...(body !== undefined && { body }) };
  if (body.length <= inlineBodyBytes) return { ...rest, bodyBase64: body.toString('base64') };
  return { ...rest, bodyFile: bodyFileOf(body) };
}

/**
 * Writes the spec of one run into `dir`: `request` alone when `next` is absent, else the
 * `listLength` requests `next` produces, deduplicated (random reads pick among few), in order.
 */
export function writeLoadSpec(
  dir: string,
  options: {
    url: string;
    connections: number;
    amount?: number;
    durationSeconds?: number;
    request: LoadRequest;
    next?: () => LoadRequest;
  },
): string {
  const { url, connections, amount, durationSeconds, request, next } = options;
  const spec: LoadSpec = {
    url,
    connections,
    ...(amount ? { amount } : { durationSeconds: durationSeconds ?? 5 }),
    base: toWire(request),
    exhaustedPath: '/bench-load-list-exhausted',
  };
  if (next) {
    const length = listLength(options);
    const indexes = new Map<string, number>();
    const distinct: WireRequest[] = [];
    const order = new Uint32Array(length);
    for (let at = 0; at < length; at++) {
      const wire = toWire(next());
      const key = JSON.stringify(wire);
      let index = indexes.get(key);
      if (index === undefined) {
        index = distinct.length;
        indexes.set(key, index);
        distinct.push(wire);
      }
      order[at] = index;
    }
    spec.distinct = distinct;
    if (distinct.length === 1 && !amount) spec.cycle = true;
    else {
      spec.orderFile = path.join(dir, 'order.u32');
      writeFileSync(spec.orderFile, order);
    }
  }
  const file = path.join(dir, 'spec.json');
  writeFileSync(file, JSON.stringify(spec));
  return file;
}
