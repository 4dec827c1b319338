import type { CofferProcess } from '../support/coffer-process.ts';
import { type SeededRandom, seededRandom } from '../support/seeded-random.ts';
import type { KillSwitch } from './crash-round.ts';
import { type KnownFile, type Lineage, type StepKind, toContent } from './version-model.ts';
import { StepRunner } from './version-step-runner.ts';

/*
 * One round of the versions-and-trash crash suite (issue 38, "Nothing half-done"): lineages,
 * each a user of its own with one file, replace it, restore and delete its versions, copy,
 * hold, trash, restore, purge and empty their trash step by step (a step waits for its answer)
 * while the other lineages do the same, until a kill switch SIGKILLs the server. Lineages
 * share nothing, so what each answered step left is known exactly; only a lineage's last step
 * may be cut off. check-versions.ts holds the restarted server to it.
 */

/** Uploads one verified file per lineage, each by a user of its own (their trash is theirs alone). */
export async function plantLineages(options: {
  coffer: CofferProcess;
  random: SeededRandom;
  prefix: string;
  lineages: number;
}): Promise<Lineage[]> {
  const { coffer, random, prefix } = options;
  const seeds = Array.from({ length: options.lineages }, () => random.int(0, 2 ** 31));
  return Promise.all(
    seeds.map(async (seed, index) => {
      // Each lineage draws from its own generator: the choices replay whatever the interleaving.
      const own = seededRandom(seed);
      const { token } = await coffer.client.signup();
      const filePath = `${prefix}/l${index}/file.bin`;
      const body = own.bytes(index === 0 ? 0 : own.int(1, 64 * 1024), `${filePath}#0`);
      const record = await coffer.client.uploadFile(token, filePath, body, {
        contentType: 'application/octet-stream',
      });
      const file: KnownFile = {
        fileId: record._id,
        filePath,
        contents: new Map([[record._id, toContent(body)]]),
        state: { place: 'live', versionId: record._id, earlier: [], held: false },
      };
      return { index, random: own, token, files: [file], steps: [] };
    }),
  );
}

/** The steps a file's state allows (a held file is still asked to change: it must refuse). */
function choices(lineage: Lineage): { kind: StepKind; file: KnownFile }[] {
  return lineage.files.flatMap((file) => {
    const { place, earlier, held } = file.state;
    if (place === 'trashed')
      return (['restore', 'restore', 'purge', 'empty'] as const).map((kind) => ({ kind, file }));
    if (place !== 'live') return [];
    const kinds: StepKind[] = ['replace', 'replace', 'trash', held ? 'release' : 'hold'];
    if (earlier.length > 0) kinds.push('restoreVersion', 'restoreVersion', 'deleteVersion');
    if (lineage.files.length < 3) kinds.push('copy');
    return kinds.map((kind) => ({ kind, file }));
  });
}

/**
 * Runs `steps` steps in every lineage at once until the switch fires, then fires it if it has
 * not. `versionsKept` is the project's setting: the model prunes as the server must.
 */
export async function runVersionSteps(options: {
  coffer: CofferProcess;
  serviceKey: string;
  lineages: Lineage[];
  steps: number;
  versionsKept: number;
  killSwitch: KillSwitch;
}): Promise<void> {
  const { coffer, killSwitch } = options;
  const run = async (lineage: Lineage) => {
    const step = new StepRunner(coffer, lineage, options.serviceKey, killSwitch, options.versionsKept);
    for (let index = 0; index < options.steps && !killSwitch.fired; index++) {
      const open = choices(lineage);
      if (open.length === 0) return;
      const { kind, file } = lineage.random.pick(open);
      await step.run(kind, file, index);
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
}
