import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { codeAt, enrolTotp, expectCode, login } from './mfa-support.ts';

// Issue 41: requireMfa makes a sign-in without a factor enrol first, with a token good only
// for enrolment; and wrong codes count toward the account's login limits.
describe('requireMfa: enrolment first', () => {
  let server: TestServer;
  let client: ApiClient;
  const clock = new ManualClock();
  const password = 'correct horse battery';
  /** A user who never enrols: their login tells whether the server sees requireMfa yet. */
  let probe: { email: string };
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    client = server.client;
    probe = await client.signup();
  });
  after(() => server.stop());

  /** Sets requireMfa as `coffer project set` does and waits until the server sees it. */
  const requireMfa = async (on: boolean) => {
    const { projects } = server.services.repositories;
    const project = await projects.findById(client.credentials.projectId);
    await projects.updateSettings(project!.id, { ...project!.settings, requireMfa: on });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await login(client, { email: probe.email, password });
      if ((answer.status === 403) === on) return;
      if (Date.now() > deadline) throw new Error(`requireMfa=${on} never took effect`);
      await sleep(50);
    }
  };

  it('a password sign-in without a factor answers 403 MFA_ENROLMENT_REQUIRED; the token enrols and nothing else', async () => {
    const user = await client.signup();
    await requireMfa(true);
    const refused = await login(client, user);
    expectCode(refused, 403, 'MFA_ENROLMENT_REQUIRED');
    assert.equal(refused.body.token, undefined);
    const enrolmentToken = refused.body.enrolmentToken as string;
    assert.match(enrolmentToken, /^cfe_/);
    for (const [method, url] of [
      ['GET', '/api/v1/user'],
      ['POST', '/api/v1/auth/password'],
      ['POST', '/api/v1/auth/logout'],
      ['DELETE', '/api/v1/user/mfa/totp'],
    ] as const) {
      const body = method === 'GET' ? undefined : {};
      const elsewhere = await client.call(method, url, { token: enrolmentToken, body });
      expectCode(elsewhere, 401, 'INVALID_TOKEN');
    }
    // A new signup must enrol too.
    const signup = await client.call('POST', '/api/v1/auth/signup', {
      body: { email: `new-${Date.now()}@example.com`, password },
    });
    expectCode(signup, 403, 'MFA_ENROLMENT_REQUIRED');
    // The enrolment token is proof enough for enrolling (issued right after the password).
    const started = await client.call('POST', '/api/v1/user/mfa/totp', { token: enrolmentToken });
    assert.equal(started.status, 200, started.text);
    const confirmed = await client.call('POST', '/api/v1/user/mfa/totp/confirm', {
      token: enrolmentToken,
      body: { code: codeAt(started.body.secret, clock) },
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    // Spent by the enrolment: the user signs in again, now with the factor.
    const spent = await client.call('POST', '/api/v1/user/mfa/totp', { token: enrolmentToken });
    expectCode(spent, 401, 'INVALID_TOKEN');
    clock.advance(30);
    const stopped = await login(client, user);
    expectCode(stopped, 401, 'MFA_REQUIRED');
    const done = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: stopped.body.mfaToken, code: codeAt(started.body.secret, clock) },
    });
    assert.equal(done.status, 200, done.text);
    await requireMfa(false);
  });

  it('an enrolment token ends with its lifetime', async () => {
    const user = await client.signup();
    await requireMfa(true);
    const refused = await login(client, user);
    clock.advance(15 * 60 + 1);
    const late = await client.call('POST', '/api/v1/user/mfa/totp', { token: refused.body.enrolmentToken });
    expectCode(late, 401, 'INVALID_TOKEN');
    await requireMfa(false);
  });
});

describe('wrong codes count toward the login limits', () => {
  let server: TestServer;
  const clock = new ManualClock();
  before(async () => {
    server = await startTestServer(
      {},
      { COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR: '3' },
      { clock },
    );
  });
  after(() => server.stop());

  it('after three wrong codes from an address, that address is refused even with the right password', async () => {
    const { client } = server;
    const user = await enrolTotp(client, clock);
    clock.advance(30);
    const stopped = await login(client, user, '127.0.0.5');
    const wrongCode = codeAt(user.secret, clock) === '123456' ? '654321' : '123456';
    for (let attempt = 0; attempt < 3; attempt++) {
      const wrong = await client.call('POST', '/api/v1/auth/mfa', {
        body: { mfaToken: stopped.body.mfaToken, code: wrongCode },
        localAddress: '127.0.0.5',
      });
      expectCode(wrong, 401, 'INVALID_LOGIN');
    }
    expectCode(await login(client, user, '127.0.0.5'), 429, 'RATE_LIMITED');
    const limited = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: stopped.body.mfaToken, code: codeAt(user.secret, clock) },
      localAddress: '127.0.0.5',
    });
    expectCode(limited, 429, 'RATE_LIMITED');
  });
});

describe('the key of secrets at rest', () => {
  it('COFFER_MFA_KEYS: a malformed one stops the start; a good one is used instead of <dataDir>/mfa.key', async () => {
    await assert.rejects(startTestServer({}, { COFFER_MFA_KEYS: 'c2hvcnQ=' }), /COFFER_MFA_KEYS/);
    const clock = new ManualClock();
    const server = await startTestServer(
      {},
      { COFFER_MFA_KEYS: randomBytes(32).toString('base64') },
      { clock },
    );
    try {
      const user = await enrolTotp(server.client, clock);
      clock.advance(30);
      const stopped = await login(server.client, user);
      const done = await server.client.call('POST', '/api/v1/auth/mfa', {
        body: { mfaToken: stopped.body.mfaToken, code: codeAt(user.secret, clock) },
      });
      assert.equal(done.status, 200, done.text);
      assert.equal(existsSync(path.join(server.dataDir, 'mfa.key')), false);
    } finally {
      await server.stop();
    }
  });
});
