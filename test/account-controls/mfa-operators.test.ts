import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { loadConfig } from '../../src/config/config.ts';
import { openStores } from '../../src/wiring/open-stores.ts';
import type { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { launchChromium, openPage, signIn, skipWithoutChromium } from '../support/console-browser.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { expectCode, login } from './mfa-support.ts';

/** Signs up and enrols TOTP at the real time (a server process runs its own clock). */
async function enrol(client: ApiClient) {
  const user = await client.signup();
  const started = await client.call('POST', '/api/v1/user/mfa/totp', { token: user.token });
  assert.equal(started.status, 200, started.text);
  const code = new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate();
  const confirmed = await client.call('POST', '/api/v1/user/mfa/totp/confirm', {
    token: user.token,
    body: { code },
  });
  assert.equal(confirmed.status, 200, confirmed.text);
  return {
    ...user,
    secret: started.body.secret as string,
    recoveryCodes: confirmed.body.recoveryCodes as string[],
  };
}

/** Every file under a directory, as text. */
async function readTree(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { recursive: true })) {
    const file = path.join(dir, entry);
    if ((await stat(file)).isFile()) text += await readFile(file, 'latin1');
  }
  return text;
}

// Issue 41: operators clear a user's factors (`coffer user mfa-reset`, the console), and the
// TOTP secret is never readable through the API, the console, the audit log, an export or a log.
describe('MFA for operators, and the secret kept secret', () => {
  let coffer: CofferProcess;
  let console_: ConsoleCall;
  before(async () => {
    coffer = await startCofferProcess();
    console_ = await signInToConsole(coffer);
  });
  after(() => coffer.stop());
  const cli = (args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);

  it('coffer user mfa-reset <email> clears the factor: the password alone signs in again', async () => {
    const user = await enrol(coffer.client);
    expectCode(await login(coffer.client, user), 401, 'MFA_REQUIRED');
    const reset = await cli(['user', 'mfa-reset', user.email, '--project', 'default', '--json']);
    assert.equal(reset.code, 0, reset.stderr);
    assert.deepEqual(JSON.parse(reset.stdout), { userId: user.userId, reset: true });
    assert.equal((await login(coffer.client, user)).status, 200);
    const again = await cli(['user', 'mfa-reset', user.email, '--project', 'default', '--json']);
    assert.equal(JSON.parse(again.stdout).reset, false);
    const unknown = await cli(['user', 'mfa-reset', 'nobody@example.com', '--project', 'default']);
    assert.notEqual(unknown.code, 0);
  });

  it('the console shows whether a factor is on and resets it; the event names the operator', async () => {
    const user = await enrol(coffer.client);
    const projectId = coffer.credentials.projectId;
    const shown = await console_('GET', `/projects/${projectId}/users/${user.userId}`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.user.mfa, { totp: true });
    const reset = await console_('POST', `/projects/${projectId}/users/${user.userId}/mfa-reset`);
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(reset.body.reset, true);
    const after_ = await console_('GET', `/projects/${projectId}/users/${user.userId}`);
    assert.deepEqual(after_.body.user.mfa, { totp: false });
    assert.equal((await login(coffer.client, user)).status, 200);
    const audit = await console_('GET', `/projects/${projectId}/audit?type=user.mfa_disabled`);
    const event = audit.body.events.find(
      (one: { data: { userId: string } }) => one.data.userId === user.userId,
    );
    assert.equal(event?.actor.kind, 'operator');
    assert.ok(event?.actor.id, 'the operator is named');
  });

  it('the console user page shows the two-factor section and resets it (Chromium)', {
    skip: skipWithoutChromium,
  }, async () => {
    const user = await enrol(coffer.client);
    const browser = await launchChromium();
    try {
      const { page, problems, dialogs } = await openPage(browser);
      await signIn(page, coffer.baseUrl);
      await page.goto(
        `${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/users/${user.userId}`,
      );
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Two-factor' }) });
      await section.getByText('on', { exact: true }).waitFor();
      await page.getByRole('button', { name: `Reset the second factor of ${user.email}` }).click();
      await section.getByText('off', { exact: true }).waitFor();
      assert.equal(dialogs.length, 1);
      assert.deepEqual(problems, []);
      assert.ok(!(await page.content()).includes(user.secret));
      assert.equal((await login(coffer.client, user)).status, 200);
    } finally {
      await browser.close();
    }
  });

  it('deleting an enrolled user deletes its factor and recovery codes with it', async () => {
    const user = await enrol(coffer.client);
    const removed = await console_(
      'DELETE',
      `/projects/${coffer.credentials.projectId}/users/${user.userId}`,
    );
    assert.ok(removed.status < 300, JSON.stringify(removed.body));
    const config = loadConfig({ 'data-dir': coffer.dataDir }, { ...process.env, ...coffer.env });
    const { database } = await openStores(config);
    try {
      for (const table of ['user_totp', 'recovery_codes', 'mfa_tokens'] as const) {
        const rows = await database.db
          .selectFrom(table)
          .select('user_id')
          .where('user_id', '=', user.userId)
          .execute();
        assert.deepEqual(rows, [], `${table} keeps rows of a deleted user`);
      }
    } finally {
      await database.close();
    }
  });

  it('the secret appears in no answer, audit entry, export or log; the database holds it sealed', async () => {
    const user = await enrol(coffer.client);
    const projectId = coffer.credentials.projectId;
    const answers = [
      await coffer.client.call('GET', '/api/v1/user', { token: user.token }),
      await coffer.client.call('GET', `/api/v1/audit`, { serviceKey: await serviceKeyOf(cli) }),
      await console_('GET', `/projects/${projectId}/users/${user.userId}`),
      await console_('GET', `/projects/${projectId}/audit`),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      const text = 'text' in answer ? String(answer.text) : JSON.stringify(answer.body);
      assert.ok(!text.includes(user.secret), 'an answer shows the secret');
      for (const code of user.recoveryCodes)
        assert.ok(!text.includes(code), 'an answer shows a recovery code');
    }
    const out = path.join(coffer.dataDir, '..', `export-${Date.now()}`);
    const exported = await cli(['export', '--out', out, '--json']);
    assert.equal(exported.code, 0, exported.stderr);
    const dump = await readTree(out);
    assert.ok(dump.includes(user.email), 'the export holds the user');
    assert.ok(!dump.includes(user.secret), 'the export shows the secret');
    assert.ok(!coffer.output().includes(user.secret), 'the log shows the secret');
    const config = loadConfig({ 'data-dir': coffer.dataDir }, { ...process.env, ...coffer.env });
    const { database } = await openStores(config);
    try {
      const row = await database.db
        .selectFrom('user_totp')
        .select('secret')
        .where('user_id', '=', user.userId)
        .executeTakeFirstOrThrow();
      assert.match(row.secret!, /^v1\.[0-9a-f]{16}\./, 'sealed: AES-256-GCM under a named key');
      assert.ok(!row.secret!.includes(user.secret));
    } finally {
      await database.close();
    }
    // The key file lives beside the database, private.
    const key = await stat(path.join(coffer.dataDir, 'mfa.key')).catch(() => undefined);
    if (!coffer.env.COFFER_MFA_KEYS) assert.equal((key!.mode & 0o777).toString(8), '600');
  });
});

/** A service key of the default project, made with the CLI. */
async function serviceKeyOf(cli: (args: string[]) => ReturnType<typeof runCli>): Promise<string> {
  const made = await cli(['project', 'key', 'create', 'default', '--name', `mfa-${Date.now()}`, '--json']);
  assert.equal(made.code, 0, made.stderr);
  return JSON.parse(made.stdout).key as string;
}
