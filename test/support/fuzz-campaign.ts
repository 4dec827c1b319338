import fc from 'fast-check';
import { findErrorShapeProblem } from './error-shape.ts';
import type { FuzzFixture } from './fuzz-fixture.ts';
import { type FuzzCase, fuzzCase } from './fuzz-requests.ts';
import { type WireAnswer, WireClient } from './wire-client.ts';

export type CampaignResult = {
  sent: number;
  statuses: Record<string, number>;
  templates: Record<string, number>;
  /** Each failure: what was sent and what came back, enough to reproduce it with the seed. */
  failures: string[];
  failureCount: number;
  /** The slowest answers, for the log: a request that holds the server shows here first. */
  slowest: Array<{ ms: number; sent: string }>;
};

/**
 * Sends `count` seeded mutated requests over `connections` keep-alive connections, in batches
 * (each batch generated from seed + batch number, so a case is reproducible from the seed
 * alone), and checks every answer: no 5xx, every 4xx in the error shape, no connection closed
 * without an answer unless the request was malformed at the HTTP level.
 */
export async function runFuzzCampaign(options: {
  baseUrl: string;
  /**
   * Users, files and links for one batch. Each batch gets fresh ones: a mutated request may
   * well delete a file or verify an upload, and the next batch should start whole again.
   */
  prepareFixture: () => Promise<FuzzFixture>;
  seed: number;
  count: number;
  connections: number;
  batchSize?: number;
}): Promise<CampaignResult> {
  const client = new WireClient(options.baseUrl, { connections: options.connections });
  const batchSize = options.batchSize ?? 1000;
  const result: CampaignResult = {
    sent: 0,
    statuses: {},
    templates: {},
    failures: [],
    failureCount: 0,
    slowest: [],
  };
  try {
    for (let batch = 0; batch * batchSize < options.count; batch++) {
      const size = Math.min(batchSize, options.count - batch * batchSize);
      const cases = fc.sample(fuzzCase(await options.prepareFixture()), {
        seed: options.seed + batch,
        numRuns: size,
      });
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const index = next++;
          const sent = cases[index]!;
          const started = performance.now();
          const answer = await client.send(sent.request);
          const ms = Math.round(performance.now() - started);
          record(result, sent, answer, `seed ${options.seed}, batch ${batch}, case ${index}`);
          noteSlow(result, ms, sent);
        }
      };
      await Promise.all(Array.from({ length: options.connections }, worker));
    }
  } finally {
    client.close();
  }
  return result;
}

function record(result: CampaignResult, sent: FuzzCase, answer: WireAnswer, where: string): void {
  result.sent += 1;
  result.templates[sent.template] = (result.templates[sent.template] ?? 0) + 1;
  const statusKey = answer.kind === 'answered' ? String(answer.status) : 'closed';
  result.statuses[statusKey] = (result.statuses[statusKey] ?? 0) + 1;
  const problem = findProblem(sent, answer);
  if (!problem) return;
  result.failureCount += 1;
  if (result.failures.length < 20) result.failures.push(`${problem}\n  ${where}\n  ${describeCase(sent)}`);
}

function noteSlow(result: CampaignResult, ms: number, sent: FuzzCase): void {
  if (result.slowest.length >= 5 && ms <= result.slowest.at(-1)!.ms) return;
  result.slowest.push({ ms, sent: `${sent.template} + [${sent.mutations.join(', ')}]` });
  result.slowest.sort((a, b) => b.ms - a.ms).splice(5);
}

function findProblem(sent: FuzzCase, answer: WireAnswer): string | undefined {
  if (answer.kind === 'closed') {
    // Node refuses what is not HTTP and closes after its 400: the answer may be lost.
    const malformed = sent.mutations.some((m) => m === 'content-length malformed' || m === 'no Host header');
    return malformed ? undefined : `closed without an answer (${answer.error})`;
  }
  const contentType = answer.headers['content-type'];
  return findErrorShapeProblem({
    status: answer.status,
    contentType: Array.isArray(contentType) ? contentType[0] : contentType,
    body: answer.body,
    method: sent.request.method,
    quoted: sent.request.path.split('?')[0],
  });
}

function describeCase(sent: FuzzCase): string {
  const { method, path, headers, body, chunked, omitHost } = sent.request;
  const shown = body ? JSON.stringify(body.subarray(0, 300).toString('utf8')) : '(none)';
  return (
    `${sent.template} + [${sent.mutations.join(', ')}]\n  ${method} ${path.slice(0, 300)}` +
    `${chunked ? ' (chunked)' : ''}${omitHost ? ' (no Host)' : ''}\n  headers ${JSON.stringify(headers).slice(0, 600)}\n  body ${shown}`
  );
}
