import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { KillSwitch, planUploads, runUploads, toUnexpectedAnswers } from './crash-round.ts';
import { restartAndCheck, toRounds, useCrashTarget } from './crash-target.ts';

const rounds = toRounds(4);

describe(`kill -9 while 32 verifies are in flight (${currentStackName()} stack)`, () => {
  const seed = chooseSeed('kill -9 during verify');
  const target = useCrashTarget();

  it(`${rounds} rounds: a verification is kept whole or not at all, and the upload can still be verified`, {
    timeout: rounds * 90_000,
  }, async (t) => {
    for (let round = 0; round < rounds; round++) {
      const random = seededRandom(seed + round);
      const prefix = `verify-${round}`;
      const context = `round ${round} (seed ${seed})`;
      // Every file gets one whole upload, then all 32 verify at once; the kill comes with the
      // at-th answer, while the server still works on the others.
      const plans = planUploads(random, { prefix }).map((plan) => ({
        ...plan,
        puts: [{ sizeBytes: plan.puts[0]?.sizeBytes ?? 0, multipart: false, chunked: false }],
        verify: true,
        roles: [],
      }));
      const { coffer, token } = target;
      const killSwitch = new KillSwitch(coffer, { at: random.int(1, plans.length - 1), counts: 'verify' });
      const journals = await runUploads({ coffer, token, plans, random, killSwitch, verifyTogether: true });
      assert.deepEqual(toUnexpectedAnswers(journals), [], context);
      assert.ok(
        journals.every((journal) => journal.puts[0]?.answer?.status === 200),
        `${context}: uploads`,
      );
      const outcome = await restartAndCheck(target, { prefix, journals, context });
      const answered = journals.filter((journal) => journal.verifies[0]?.answer).length;
      t.diagnostic(`${context}: verifies answered before the kill ${answered}, ${JSON.stringify(outcome)}`);
    }
  });
});
