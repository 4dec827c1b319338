import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

const password = 'a long enough passphrase';

// A project's users through the console API, checked by logging in on the public API.
describe('console: users', () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let users: string;
  const login = (email: string, secret = password) =>
    coffer.client.call('POST', '/api/v1/auth/login', { body: { email, password: secret } });
  /** Polls until `check` holds: a change reaches every process within its access-epoch read. */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail('the change was not seen in time');
  };

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
    users = `/projects/${coffer.credentials.projectId}/users`;
  });
  after(() => coffer.stop());

  it('creates users, pages through them by email, finds one', async () => {
    for (const email of ['c@example.com', 'a@example.com', 'b@example.com']) {
      const created = await call('POST', users, { email, password, role: 'editor' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.user.role, 'editor');
      assert.ok(!JSON.stringify(created.body).includes('argon2'), 'no password hash');
    }
    assert.equal((await call('POST', users, { email: 'a@example.com', password })).status, 409);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const query: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const page = await call('GET', `${users}?limit=2${query}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      seen.push(...page.body.users.map((user: { email: string }) => user.email));
      after = page.body.next;
    } while (after !== null);
    assert.deepEqual(seen, ['a@example.com', 'b@example.com', 'c@example.com']);
    const found = await call('GET', `${users}?email=B@example.com`);
    assert.deepEqual(
      found.body.users.map((user: { email: string }) => user.email),
      ['b@example.com'],
    );
  });

  it('changes a role, disables and enables, resets a password, deletes', async () => {
    const { body } = await call('GET', `${users}?email=a@example.com`);
    const userId = body.users[0].userId;
    const changed = await call('PATCH', `${users}/${userId}`, { role: 'admin', enabled: false });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.user.role, 'admin');
    assert.equal(changed.body.user.enabled, false);
    await eventually(async () => (await login('a@example.com')).status === 403);
    await call('PATCH', `${users}/${userId}`, { enabled: true });
    await eventually(async () => (await login('a@example.com')).status === 200);

    const reset = await call('POST', `${users}/${userId}/password`, { password: 'another long passphrase' });
    assert.equal(reset.status, 200);
    assert.equal((await login('a@example.com')).status, 401);
    assert.equal((await login('a@example.com', 'another long passphrase')).status, 200);
    assert.equal((await call('POST', `${users}/${userId}/password`, { password: 'short' })).status, 400);

    const deleted = await call('DELETE', `${users}/${userId}`);
    assert.equal(deleted.status, 200);
    assert.equal((await login('a@example.com', 'another long passphrase')).status, 401);
    assert.equal((await call('DELETE', `${users}/${userId}`)).status, 404);
    assert.equal((await call('PATCH', `${users}/${userId}`, { enabled: true })).status, 404);
  });
});
