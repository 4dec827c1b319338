import type { CofferProcess } from '../support/coffer-process.ts';
import { type SeededRandom, seededRandom } from '../support/seeded-random.ts';
import { type Answer, type KillSwitch, toEtag } from './crash-round.ts';

/*
 * One round of the organizing crash suite: lineages of verified files, each copied, moved and
 * bulk-deleted step by step (a step waits for the answer before it) while the other lineages
 * do the same, until a kill switch SIGKILLs the server. Lineages share no file and no path,
 * so what each answered step left is known exactly; check-organizing.ts holds the restarted
 * server to it.
 */

/** What the clients know of one file: its bytes, and its path as last answered. */
export type KnownFile = {
  fileId: string;
  filePath: string;
  etag: string;
  sizeBytes: number;
  deleted: boolean;
};

export type OrganizingStep =
  | { kind: 'copy'; source: KnownFile; filePath: string; answer?: Answer }
  | { kind: 'move'; file: KnownFile; filePath: string; answer?: Answer }
  | {
      kind: 'delete';
      files: KnownFile[];
      /** The ids among `files` already deleted when it was sent: their outcome is 404. */
      gone: string[];
      answer?: Answer;
      results?: { fileId: string; statusCode: number }[];
    };

/** Everything a round's clients saw: every file they knew of and every step they sent. */
export type OrganizingJournal = { prefix: string; files: KnownFile[]; steps: OrganizingStep[] };

type Lineage = { index: number; random: SeededRandom; files: KnownFile[] };

/** Uploads and verifies one file per lineage (0 B to 256 KiB, the first one empty). */
export async function uploadLineages(options: {
  coffer: CofferProcess;
  token: string;
  random: SeededRandom;
  prefix: string;
  lineages: number;
}): Promise<Lineage[]> {
  const { coffer, token, random, prefix } = options;
  const planned = Array.from({ length: options.lineages }, (_, index) => ({
    index,
    // Each lineage draws from its own generator: the choices replay whatever the interleaving.
    random: seededRandom(random.int(0, 2 ** 31)),
    sizeBytes: index === 0 ? 0 : random.int(1, 256 * 1024),
  }));
  return Promise.all(
    planned.map(async ({ index, random: own, sizeBytes }) => {
      const filePath = `${prefix}/l${index}/original.bin`;
      const body = own.bytes(sizeBytes, filePath);
      const record = await coffer.client.uploadFile(token, filePath, body, {
        contentType: 'application/octet-stream',
      });
      const file = { fileId: record._id, filePath, etag: toEtag(body), sizeBytes, deleted: false };
      return { index, random: own, files: [file] };
    }),
  );
}

/**
 * Runs `steps` steps in every lineage at once, each a copy (of any live file of the lineage,
 * copies included), a move or a bulk delete of one to three live files (sometimes with an id
 * already deleted), until the switch fires; then fires it if it has not. Answers the journal.
 */
export async function runOrganizing(options: {
  coffer: CofferProcess;
  token: string;
  prefix: string;
  lineages: Lineage[];
  steps: number;
  killSwitch: KillSwitch;
}): Promise<OrganizingJournal> {
  const { coffer, token, killSwitch } = options;
  const journal: OrganizingJournal = {
    prefix: options.prefix,
    files: options.lineages.flatMap((lineage) => lineage.files),
    steps: [],
  };
  const send = async (step: OrganizingStep, url: string, body: unknown) => {
    journal.steps.push(step);
    const response = await coffer.client.call('POST', url, { token, body });
    step.answer = { status: response.status, ...(response.body?.code ? { code: response.body.code } : {}) };
    killSwitch.tick('answer');
    return response.body;
  };
  const run = async (lineage: Lineage) => {
    const { random } = lineage;
    const where = (what: string, step: number) => `${options.prefix}/l${lineage.index}/${what}-${step}.bin`;
    for (let index = 0; index < options.steps && !killSwitch.fired; index++) {
      const live = lineage.files.filter((file) => !file.deleted);
      if (live.length === 0) return;
      const kind = random.pick(['copy', 'copy', 'move', 'move', 'delete'] as const);
      if (kind === 'copy') {
        const source = random.pick(live);
        const step: OrganizingStep = { kind, source, filePath: where('copy', index) };
        const copied = await send(step, `/api/v1/file/${source.fileId}/copy`, { filePath: step.filePath });
        if (step.answer?.status !== 200) return;
        const copy = { ...source, fileId: copied._id as string, filePath: step.filePath };
        lineage.files.push(copy);
        journal.files.push(copy);
      } else if (kind === 'move') {
        const file = random.pick(live);
        const step: OrganizingStep = { kind, file, filePath: where('moved', index) };
        await send(step, `/api/v1/file/${file.fileId}/move`, { filePath: step.filePath });
        if (step.answer?.status === 200) file.filePath = step.filePath;
      } else {
        const files = Array.from({ length: random.int(1, 3) }, () => random.pick(live));
        const gone = lineage.files.filter((file) => file.deleted);
        if (gone.length > 0 && random.next() < 0.3) files.push(random.pick(gone));
        const unique = [...new Set(files)];
        const step: OrganizingStep = {
          kind,
          files: unique,
          gone: unique.filter((file) => file.deleted).map((file) => file.fileId),
        };
        const deleted = await send(step, '/api/v1/file/delete', {
          fileIds: unique.map((file) => file.fileId),
        });
        if (step.answer?.status !== 200) return;
        step.results = deleted.results;
        for (const file of unique) file.deleted = true;
      }
    }
  };
  const runs = await Promise.allSettled(
    options.lineages.map(async (lineage) => {
      try {
        await run(lineage);
      } catch (error) {
        // A request cut off by the kill is the point; a failure before it is a finding.
        if (!killSwitch.fired) throw error;
      }
    }),
  );
  await killSwitch.fire();
  for (const outcome of runs) if (outcome.status === 'rejected') throw outcome.reason;
  return journal;
}

/**
 * What went otherwise than planned in the steps answered: lineages share nothing, so every
 * step succeeds, and a bulk delete answers 204 for each live file and 404 for one already gone.
 */
export function toUnexpectedSteps(journal: OrganizingJournal): string[] {
  return journal.steps.flatMap((step) => {
    if (!step.answer) return [];
    if (step.answer.status !== 200) return [`${step.kind}: ${step.answer.status} ${step.answer.code ?? ''}`];
    if (step.kind !== 'delete') return [];
    const expected = step.files.map(({ fileId }) => ({
      fileId,
      statusCode: step.gone.includes(fileId) ? 404 : 204,
    }));
    const got = step.results?.map(({ fileId, statusCode }) => ({ fileId, statusCode }));
    return JSON.stringify(got) === JSON.stringify(expected)
      ? []
      : [`bulk delete: expected ${JSON.stringify(expected)}, answered ${JSON.stringify(got)}`];
  });
}
