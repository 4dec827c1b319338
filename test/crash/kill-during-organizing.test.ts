import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { assertGcSparesReferencedBlobs } from './check-blob-references.ts';
import { checkOrganizingAfterRestart } from './check-organizing.ts';
import { KillSwitch } from './crash-round.ts';
import { restartAndHold, toRounds, useCrashTarget } from './crash-target.ts';
import { runOrganizing, toUnexpectedSteps, uploadLineages } from './organizing-round.ts';

const rounds = toRounds(2, 30);
const lineages = 16;
const steps = 6;
const stack = currentStackName();

// Once on one process, once on --workers 2 (two processes writing, killed at one instant).
for (const args of [[], ['--workers', '2']]) {
  const serve = ['serve', ...args].join(' ');
  describe(`kill -9 of ${serve} during copies, moves and bulk deletes (${stack} stack)`, () => {
    const seed = chooseSeed(`kill -9 of ${serve} during organizing`);
    const target = useCrashTarget(args);

    it(`${rounds} rounds of ${lineages} lineages copied, moved and bulk-deleted at once: every answered step kept, none half-done, usage exact, gc spares every referenced version`, {
      timeout: rounds * 90_000,
    }, async (t) => {
      for (let round = 0; round < rounds; round++) {
        const random = seededRandom(seed + round);
        const prefix = `organize-${round}`;
        const context = `round ${round} (seed ${seed})`;
        const { coffer, token } = target;
        const planted = await uploadLineages({ coffer, token, random, prefix, lineages });
        // The kill comes with the at-th answer, once every lineage is under way and before any may
        // have run out of files: about one step per lineage is then in flight.
        const killSwitch = new KillSwitch(coffer, {
          at: random.int(1, lineages * steps - 1),
          counts: 'answer',
        });
        const journal = await runOrganizing({ coffer, token, prefix, lineages: planted, steps, killSwitch });
        assert.deepEqual(toUnexpectedSteps(journal), [], context);
        const outcome = await restartAndHold(target, context, async (restarted) => ({
          ...(await checkOrganizingAfterRestart({ client: restarted.client, token, journal })),
          strayVersions: await assertGcSparesReferencedBlobs(restarted),
        }));
        t.diagnostic(`${context}: ${journal.steps.length} steps sent, ${JSON.stringify(outcome)}`);
      }
    });
  });
}
