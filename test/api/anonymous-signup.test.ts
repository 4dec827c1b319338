import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// Anonymous signup and closed signup (issue 10, item 3), over real HTTP.
describe('signup per project: anonymous accounts, closed signup', () => {
  let server: TestServer;
  let client: ApiClient;
  before(async () => {
    server = await startTestServer({}, { COFFER_SIGNUPS_PER_ADDRESS_PER_HOUR: '4' });
    client = server.client;
  });
  after(() => server.stop());

  const anonymous = (body?: unknown, localAddress?: string) =>
    client.call('POST', '/api/v1/auth/signup/anonymous', { body, localAddress });
  const signup = (email: string, localAddress?: string) =>
    client.call('POST', '/api/v1/auth/signup', {
      body: { email, password: 'correct horse battery' },
      localAddress,
    });
  const expectCode = (response: ApiResponse, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.equal(response.body.code, code);
  };
  /** Changes settings as `coffer project set` does; running servers see it within the access epoch. */
  const setSettings = async (change: Partial<ProjectSettings>, until: () => Promise<boolean>) => {
    const { projects } = server.services.repositories;
    const project = await projects.findById(client.credentials.projectId);
    await projects.updateSettings(client.credentials.projectId, { ...project!.settings, ...change });
    const deadline = Date.now() + 30_000;
    while (!(await until())) {
      if (Date.now() > deadline) throw new Error(`settings ${JSON.stringify(change)} never took effect`);
      await sleep(50);
    }
  };

  it('is refused with ACCESS_DENIED while the project does not allow it (the default)', async () => {
    const refused = await anonymous(undefined, '127.0.0.9');
    expectCode(refused, 403, 'ACCESS_DENIED');
    assert.match(refused.body.message, /anonymous signup is not allowed/i);
  });

  it('where allowed: an account of role anonymous, answered like a login, that no password opens', async () => {
    await setSettings({ anonymousSignup: true }, async () => (await anonymous()).status === 200);
    const first = await anonymous({}, '127.0.0.2');
    const second = await anonymous(undefined, '127.0.0.2');
    for (const answer of [first, second]) {
      assert.equal(answer.status, 200, answer.text);
      assert.match(answer.body.refreshToken, /^[A-Za-z0-9_-]{43}$/);
    }
    assert.notEqual(first.body.userId, second.body.userId);
    const profile = await client.call('GET', '/api/v1/user', { token: first.body.token });
    assert.equal(profile.status, 200, profile.text);
    assert.equal(profile.body.role, 'anonymous');
    const key = profile.body.emails[0].email as string;
    assert.match(key, /@anonymous\.invalid$/);
    // No password opens it, and none can be set without one.
    for (const password of ['', '!no-password', 'correct horse battery']) {
      const login = await client.call('POST', '/api/v1/auth/login', { body: { email: key, password } });
      assert.ok([400, 401].includes(login.status), login.text);
    }
    const change = await client.call('POST', '/api/v1/auth/password', {
      token: first.body.token,
      body: { oldPassword: '!no-password', newPassword: 'a new long password' },
    });
    expectCode(change, 401, 'INVALID_LOGIN');
    // Its session refreshes like any other.
    const refreshed = await client.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: first.body.refreshToken },
    });
    assert.equal(refreshed.status, 200, refreshed.text);
    // Nobody may sign up at the anonymous accounts' domain.
    expectCode(await signup(key), 400, 'VALIDATION_FAILED');
    expectCode(await signup('someone@Anonymous.Invalid'), 400, 'VALIDATION_FAILED');
  });

  it('takes no body or an empty object only', async () => {
    for (const body of ['[]', '"x"', '42']) {
      expectCode(await anonymous(body, '127.0.0.3'), 400, 'VALIDATION_FAILED');
    }
    const withoutType = await client.call('POST', '/api/v1/auth/signup/anonymous', {
      localAddress: '127.0.0.3',
    });
    assert.equal(withoutType.status, 200, withoutType.text);
  });

  it('draws on the signup allowance of the address (shared with signup): RATE_LIMITED beyond', async () => {
    const address = '127.0.0.4';
    assert.equal((await signup('rate-1@example.com', address)).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await anonymous(undefined, address)).status, 200);
    const limited = await anonymous(undefined, address);
    expectCode(limited, 429, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    expectCode(await signup('rate-2@example.com', address), 429, 'RATE_LIMITED');
  });

  it('closed signup answers ACCESS_DENIED without drawing on the allowance; anonymous signup goes on', async () => {
    const address = '127.0.0.5';
    await setSettings(
      { signup: 'closed' },
      async () => (await signup(`probe-${Date.now()}@example.com`, '127.0.0.6')).status === 403,
    );
    for (let i = 0; i < 6; i++) {
      const refused = await signup(`closed-${i}@example.com`, address);
      expectCode(refused, 403, 'ACCESS_DENIED');
      assert.match(refused.body.message, /signup is closed/i);
    }
    // Six refusals drew nothing: the address still has its four signups.
    for (let i = 0; i < 4; i++) assert.equal((await anonymous(undefined, address)).status, 200);
    // An existing account still logs in.
    await setSettings({ signup: 'open' }, async () => (await signup('reopened@example.com')).status === 200);
    const login = await client.call('POST', '/api/v1/auth/login', {
      body: { email: 'reopened@example.com', password: 'correct horse battery' },
    });
    assert.equal(login.status, 200, login.text);
  });

  it('is refused where the admin role is anonymous: it would hand out admin accounts', async () => {
    const { projects } = server.services.repositories;
    const other = await server.createProject('anonymous-admins');
    const project = await projects.findById(other.credentials.projectId);
    const { db } = server.services.database;
    await db.updateTable('projects').set({ admin_role: 'anonymous' }).where('id', '=', project!.id).execute();
    await projects.updateSettings(project!.id, { ...project!.settings, anonymousSignup: true });
    const deadline = Date.now() + 30_000;
    let answer: ApiResponse;
    do {
      answer = await other.call('POST', '/api/v1/auth/signup/anonymous', { localAddress: '127.0.0.7' });
      if (answer.status === 403 && /admin role/.test(answer.body.message)) break;
      await sleep(50);
    } while (Date.now() < deadline);
    expectCode(answer, 403, 'ACCESS_DENIED');
    assert.match(answer.body.message, /admin role/);
  });
});
