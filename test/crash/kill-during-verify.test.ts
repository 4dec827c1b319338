import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { assertDatabaseIntegrity } from '../support/database-integrity.ts';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { checkAfterRestart } from './check-after-restart.ts';
import { KillSwitch, planUploads, runUploads, toUnexpectedAnswers } from './crash-round.ts';

const rounds = process.env.COFFER_TEST_LONG === '1' ? 40 : 4;

describe(`kill -9 while 32 verifies are in flight (${currentStackName()} stack)`, () => {
  const seed = chooseSeed('kill -9 during verify');
  let coffer: CofferProcess;
  let token: string;
  before(async () => {
    coffer = await startCofferProcess();
    token = (await coffer.client.signup()).token;
  });
  after(() => coffer?.stop());

  it(`${rounds} rounds: a verification is kept whole or not at all, and the upload can still be verified`, {
    timeout: rounds * 30_000,
  }, async (t) => {
    for (let round = 0; round < rounds; round++) {
      const random = seededRandom(seed + round);
      const prefix = `verify-${round}`;
      // Every file gets one whole upload, then all 32 verify at once; the kill comes with the at-th
      // answer, while the server still works on the others.
      const plans = planUploads(random, { prefix }).map((plan) => ({
        ...plan,
        puts: [
          { ...plan.puts[0], sizeBytes: plan.puts[0]?.sizeBytes ?? 0, multipart: false, chunked: false },
        ],
        verify: true,
        roles: [],
      }));
      const killSwitch = new KillSwitch(coffer, { at: random.int(1, plans.length - 1), counts: 'verify' });
      const journals = await runUploads({ coffer, token, plans, random, killSwitch, verifyTogether: true });
      const context = `round ${round} (seed ${seed})`;
      assert.deepEqual(toUnexpectedAnswers(journals), [], context);
      assert.ok(
        journals.every((journal) => journal.puts[0]?.answer?.status === 200),
        `${context}: uploads`,
      );
      coffer = await coffer.restart();
      const outcome = await checkAfterRestart({ client: coffer.client, token, prefix, journals });
      await assertDatabaseIntegrity(coffer);
      const answered = journals.filter((journal) => journal.verifies[0]?.answer).length;
      t.diagnostic(`${context}: verifies answered before the kill ${answered}, ${JSON.stringify(outcome)}`);
    }
  });
});
