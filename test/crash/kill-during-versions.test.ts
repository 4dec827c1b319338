import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { runCli } from '../support/coffer-process.ts';
import { assertDatabaseIntegrity } from '../support/database-integrity.ts';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { applyGcAfterGrace, assertReferencedBlobsStored } from './check-blob-references.ts';
import { assertLineagesRead, checkVersionsAfterRestart } from './check-versions.ts';
import { KillSwitch } from './crash-round.ts';
import { restartAndHold, toRounds, useCrashTarget } from './crash-target.ts';
import { toUnexpectedSteps } from './version-step-runner.ts';
import { plantLineages, runVersionSteps } from './versions-round.ts';

const rounds = toRounds(3);
const lineages = 12;
const steps = 8;
// Small, so that replaces and restores prune in most lineages (in the promoting transaction).
const versionsKept = 2;
const stack = currentStackName();

describe(`kill -9 of coffer serve during replaces, version restores and deletes, holds, trash, restores, purges and empties (${stack} stack)`, () => {
  const seed = chooseSeed('kill -9 during versions and trash');
  const target = useCrashTarget();
  let serviceKey: string;

  before(async () => {
    const { coffer } = target;
    const cli = (args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);
    const set = await cli(['project', 'set', 'default', `versionsKept=${versionsKept}`]);
    assert.equal(set.code, 0, set.stderr);
    const key = await cli(['project', 'key', 'create', 'default', '--name', 'crash-holds', '--json']);
    assert.equal(key.code, 0, key.stderr);
    serviceKey = JSON.parse(key.stdout).key;
    // Started again: the setting holds from the first request, whatever the server cached.
    await coffer.kill();
    target.coffer = await coffer.restart();
  });

  it(`${rounds} rounds of ${lineages} lineages: every answered step kept, none half-done, usage exact, every version reads back, and after coffer gc --apply still does`, {
    timeout: rounds * 120_000,
  }, async (t) => {
    for (let round = 0; round < rounds; round++) {
      const random = seededRandom(seed + round);
      const prefix = `versions-${round}`;
      const context = `round ${round} (seed ${seed})`;
      const { coffer } = target;
      const planted = await plantLineages({ coffer, random, prefix, lineages });
      // Counted in answers, once every lineage is under way: about one step per lineage in flight.
      const killSwitch = new KillSwitch(coffer, { at: random.int(1, lineages * steps), counts: 'answer' });
      await runVersionSteps({ coffer, serviceKey, lineages: planted, steps, versionsKept, killSwitch });
      const killedAt = Date.now();
      assert.deepEqual(toUnexpectedSteps(planted), [], context);
      const outcome = await restartAndHold(target, context, (restarted) =>
        checkVersionsAfterRestart({ client: restarted.client, prefix, lineages: planted, versionsKept }),
      );
      const removed = await applyGcAfterGrace(target.coffer, killedAt);
      try {
        await assertDatabaseIntegrity(target.coffer);
        await assertReferencedBlobsStored(target.coffer);
        await assertLineagesRead(target.coffer.client, planted);
      } catch (error) {
        (error as Error).message = `${context}, after coffer gc --apply: ${(error as Error).message}`;
        throw error;
      }
      // What the round exercised: the steps sent of each kind.
      const sent: Record<string, number> = {};
      for (const step of planted.flatMap((lineage) => lineage.steps))
        sent[step.kind] = (sent[step.kind] ?? 0) + 1;
      t.diagnostic(
        `${context}: sent ${JSON.stringify(sent)}, ${JSON.stringify({ ...outcome, gcRemoved: removed })}`,
      );
    }
  });
});
