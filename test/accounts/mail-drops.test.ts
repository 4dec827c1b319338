import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { waitUntil } from '../support/webhook-receiver.ts';
import { counterValue } from './account-mail-support.ts';

/**
 * Issue 43 item 6: a mail a limit drops is no longer silent: `coffer serve` logs it (the address
 * masked) and counts it in /metrics by reason, the recipient's limit and the project's budget.
 */
describe('a mail dropped by a limit is logged and counted', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer?.stop());

  const dropped = (reason: string) =>
    counterValue(coffer.baseUrl, `coffer_mails_dropped_total{reason="${reason}"}`);
  const askReset = (email: string) =>
    coffer.client.call('POST', '/api/v1/auth/password-reset', { body: { email } });

  it("past the address's one mail a minute: answered as usual, logged masked, counted as recipient_limit", async () => {
    const email = `Flooded.Person-${process.hrtime.bigint()}@drops.example`;
    const before = await dropped('recipient_limit');
    const from = coffer.output().length;
    assert.equal((await askReset(email)).status, 202);
    assert.equal((await askReset(email)).status, 202, 'the second is answered alike');
    assert.equal(await dropped('recipient_limit'), before + 1);
    const [line] = await coffer.waitForOutput(/[^\n]*an account mail was dropped by a limit[^\n]*/, from);
    const logged = JSON.parse(line);
    assert.equal(logged.reason, 'recipient_limit');
    assert.equal(logged.to, 'f***@drops.example');
    assert.equal(logged.projectId, coffer.credentials.projectId);
    assert.ok(!coffer.output().toLowerCase().includes(email.toLowerCase()), 'the address never in clear');
  });

  it("with the project's daily budget spent: 429, counted as project_budget", async () => {
    const set = await runCli(
      ['project', 'set', 'default', 'mailDailyBudget=0', '--data-dir', coffer.dataDir],
      coffer.env,
    );
    assert.equal(set.code, 0, set.stderr);
    const before = await dropped('project_budget');
    // The server sees the change at its next access-epoch read.
    await waitUntil(
      async () =>
        (await askReset(`budget-${process.hrtime.bigint()}@drops.example`)).status === 429 ? true : undefined,
      'the budget of 0 to refuse',
    );
    assert.ok((await dropped('project_budget')) > before);
  });
});
