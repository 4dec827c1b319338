import type { ApiResponse } from '../support/api-client.ts';
import { etagsOf, expectedEtag } from '../support/byte-streams.ts';
import type { CofferProcess } from '../support/coffer-process.ts';
import type { SeededRandom } from '../support/seeded-random.ts';
import { streamedPut } from '../support/streamed-put.ts';

/*
 * One round of the kill -9 suite: concurrent uploads (request, one or two PUTs, maybe verify,
 * maybe shares) against a real `coffer serve`, which a kill switch SIGKILLs at a seeded
 * moment. Everything the clients saw is written down in a journal, which
 * check-after-restart.ts holds the restarted server to.
 */

const MiB = 1024 * 1024;
export const maxUploadBytes = 11 * MiB;

export type PutPlan = { sizeBytes: number; multipart: boolean; chunked: boolean };
export type FilePlan = { filePath: string; puts: PutPlan[]; verify: boolean; roles: string[] };

/** What a client saw of one request: no answer means the server died before answering. */
export type Answer = { status: number; etag?: string; code?: string };
/**
 * A PUT as sent: every tag a store may give its bytes (etagsOf: the disk's truncated SHA-256,
 * S3's MD5 and, for a body over one S3 part, the multipart object's tag), as the server under
 * test may run either store. The record carries one of them, and downloaded bytes that carry
 * the record's tag are the PUT's.
 */
export type PutJournal = PutPlan & { etags: string[]; answer?: Answer };
export type FileJournal = {
  filePath: string;
  fileId?: string;
  puts: PutJournal[];
  verifies: { etag: string; answer?: Answer }[];
  shares: { role: string; answer?: Answer }[];
};

/**
 * What the kill switch counts: every step (`any`: a request sent, a body chunk, an answer),
 * every answer, or the answers of one kind only. Requests sent together all leave in the same
 * tick, so counting answers is what puts the kill among requests the server is still working on.
 */
export type KillPoint = 'any' | 'answer' | 'verify' | 'share';

/** SIGKILLs the server at the `at`-th counted event (a request sent, a body chunk, an answer). */
export class KillSwitch {
  readonly #at: number;
  readonly #counts: KillPoint;
  readonly #coffer: CofferProcess;
  #seen = 0;
  killed: Promise<void> | undefined;

  constructor(coffer: CofferProcess, options: { at: number; counts: KillPoint }) {
    this.#coffer = coffer;
    this.#at = options.at;
    this.#counts = options.counts;
  }

  get fired(): boolean {
    return this.killed !== undefined;
  }

  tick(kind: 'request' | 'chunk' | 'answer' | KillPoint): void {
    if (this.fired || (this.#counts !== 'any' && kind !== this.#counts)) return;
    this.#seen += 1;
    if (this.#seen >= this.#at) this.fire();
  }

  /** Kills now (idempotent); resolves once the server and its workers are gone. */
  fire(): Promise<void> {
    this.killed ??= this.#coffer.kill();
    return this.killed;
  }
}

/** The events a plan produces when nothing is killed: the range the kill point is drawn from. */
export function countEvents(plans: FilePlan[], counts: Exclude<KillPoint, 'answer'>): number {
  if (counts === 'verify') return plans.filter((plan) => plan.verify).length;
  if (counts === 'share') return plans.reduce((sum, plan) => sum + plan.roles.length, 0);
  const chunks = (put: PutPlan) => Math.ceil((put.sizeBytes + (put.multipart ? 200 : 0)) / (64 * 1024));
  return plans.reduce(
    (sum, plan) =>
      sum +
      2 +
      plan.puts.reduce((puts, put) => puts + 2 + chunks(put), 0) +
      (plan.verify ? 2 : 0) +
      plan.roles.length * 2,
    0,
  );
}

/**
 * 32 uploads, sizes log-uniform from 0 to `maxSizeBytes` (default 192 KiB: quick rounds; the
 * suite's big rounds pass 11 MiB), one of exactly 0 bytes and one of the maximum.
 */
export function planUploads(
  random: SeededRandom,
  options: { prefix: string; count?: number; maxSizeBytes?: number },
): FilePlan[] {
  const max = options.maxSizeBytes ?? 192 * 1024;
  const size = (index: number) => {
    if (index === 0) return 0;
    if (index === 1) return max;
    return Math.floor(Math.exp(random.next() * Math.log(max + 1))) - 1;
  };
  return Array.from({ length: options.count ?? 32 }, (_, index) => ({
    filePath: `${options.prefix}/file-${index}.bin`,
    puts: Array.from({ length: random.int(0, 9) === 0 ? 0 : random.int(1, 2) }, (_, put) => ({
      sizeBytes: put === 0 ? size(index) : size(random.int(1, 31)),
      multipart: random.next() < 0.4,
      chunked: random.next() < 0.3,
    })),
    verify: random.next() < 0.6,
    roles: Array.from({ length: random.int(0, 3) }, (_, role) => `r${index}-${role}`),
  }));
}

/** The tag the current stack's store gives bytes stored in one part (at most one S3 part). */
export const toEtag = (bytes: Buffer) => expectedEtag(bytes);

/** Whether a record's ETag names this PUT's bytes, on whichever store kept them. */
export const isEtagOf = (put: Pick<PutJournal, 'etags'>, etag: string | undefined) =>
  etag !== undefined && put.etags.includes(etag);

const toAnswer = (status: number, body: { code?: string } | undefined, etag?: string | null): Answer => ({
  status,
  ...(etag ? { etag } : {}),
  ...(body?.code ? { code: body.code } : {}),
});

/**
 * Runs the plans concurrently until they finish or the switch fires (no new request after
 * that; if it has not fired by the end, it fires then); answers the journal. Bytes come from `random`, labelled by path and attempt.
 */
export async function runUploads(options: {
  coffer: CofferProcess;
  token: string;
  plans: FilePlan[];
  random: SeededRandom;
  /** Omitted: nothing is killed (the caller inspects the quiet server first). */
  killSwitch?: KillSwitch;
  /** Verify only once every file is uploaded, all at once: many verifies in flight. */
  verifyTogether?: boolean;
}): Promise<FileJournal[]> {
  const { coffer, token } = options;
  const killSwitch = options.killSwitch ?? { fired: false, tick: () => {}, fire: async () => {} };
  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Answer & { body: ApiResponse['body'] }> => {
    killSwitch.tick('request');
    const response = await coffer.client.call(method, path, { token, body });
    killSwitch.tick('answer');
    return { ...toAnswer(response.status, response.body), body: response.body };
  };
  const barrier = countdown(options.plans.length);
  const run = async (plan: FilePlan, journal: FileJournal, arrive: () => Promise<void>) => {
    const requested = await call('POST', '/api/v1/file', { filePath: plan.filePath });
    if (requested.status !== 200) throw new Error(`upload request: ${requested.status} ${requested.code}`);
    journal.fileId = requested.body.fileId;
    for (const [index, put] of plan.puts.entries()) {
      if (killSwitch.fired) return;
      const body = options.random.bytes(put.sizeBytes, `${plan.filePath}#${index}`);
      const entry: PutJournal = { ...put, etags: etagsOf(body) };
      journal.puts.push(entry);
      killSwitch.tick('request');
      const answer = await streamedPut({
        url: requested.body.putFileUrl,
        body,
        multipart: put.multipart,
        chunked: put.chunked,
        onChunk: () => killSwitch.tick('chunk'),
      });
      killSwitch.tick('answer');
      entry.answer = toAnswer(answer.status, parseJson(answer.text), answer.etag);
    }
    if (options.verifyTogether) await arrive();
    const etag = journal.puts.findLast((put) => put.answer?.status === 200)?.answer?.etag;
    if (plan.verify && etag && !killSwitch.fired) {
      const verify: FileJournal['verifies'][number] = { etag };
      journal.verifies.push(verify);
      verify.answer = await call('POST', `/api/v1/file/${journal.fileId}/verify`, { etag });
      killSwitch.tick('verify');
    }
    await Promise.all(
      plan.roles.map(async (role) => {
        if (killSwitch.fired) return;
        const share: FileJournal['shares'][number] = { role };
        journal.shares.push(share);
        share.answer = await call('POST', `/api/v1/file/${journal.fileId}/acl/role/${role}`);
        killSwitch.tick('share');
      }),
    );
  };
  const journals = options.plans.map((plan) => ({
    filePath: plan.filePath,
    puts: [],
    verifies: [],
    shares: [],
  }));
  const runs = await Promise.allSettled(
    options.plans.map(async (plan, index) => {
      // Every run arrives once, at the barrier or when it ends early, so none waits forever.
      let arrived = false;
      const arrive = () => {
        if (!arrived) barrier.arrive();
        arrived = true;
        return barrier.done;
      };
      try {
        await run(plan, journals[index]!, arrive);
      } catch (error) {
        // A request cut off by the kill is the point; a failure before it is a finding.
        if (!killSwitch.fired) throw error;
      } finally {
        arrive();
      }
    }),
  );
  // Whatever the switch's count, the round ends with a kill (if late, of an idle server).
  await killSwitch.fire();
  for (const outcome of runs) if (outcome.status === 'rejected') throw outcome.reason;
  return journals;
}

function countdown(count: number) {
  let left = count;
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  if (left === 0) open();
  return {
    done,
    arrive: () => {
      left -= 1;
      if (left === 0) open();
    },
  };
}

function parseJson(text: string): { code?: string } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The answers other than 200 a round got: on a healthy store, every request that is answered succeeds. */
export function toUnexpectedAnswers(
  journals: FileJournal[],
  accept: (answer: Answer) => boolean = () => false,
) {
  return journals.flatMap((journal) =>
    [...journal.puts, ...journal.verifies, ...journal.shares]
      .filter((step) => step.answer && step.answer.status !== 200 && !accept(step.answer))
      .map((step) => `${journal.filePath}: ${step.answer!.status} ${step.answer!.code ?? ''}`),
  );
}
