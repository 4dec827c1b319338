import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP, URI } from 'otpauth';
import { CofferClient, CofferError } from '../../packages/client/src/index.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { codeAt, enrolTotp, expectCode, login } from './mfa-support.ts';

// Issue 41, TOTP: enrolment with codes of the stock `otpauth` package, the second step of a
// sign-in, replays, recovery codes, the end of an mfaToken, over real HTTP on both stacks.
describe('MFA with TOTP', () => {
  let server: TestServer;
  let client: ApiClient;
  const clock = new ManualClock();
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    client = server.client;
  });
  after(() => server.stop());

  it('enrols: a pending secret (otpauth URL, QR code) that a first code confirms, with ten recovery codes', async () => {
    const user = await client.signup();
    const started = await client.call('POST', '/api/v1/user/mfa/totp', { token: user.token });
    assert.equal(started.status, 200, started.text);
    const parsed = URI.parse(started.body.otpauthUrl) as TOTP;
    assert.ok(parsed instanceof TOTP);
    assert.equal(parsed.secret.base32, started.body.secret);
    assert.equal(parsed.issuer, 'default');
    assert.equal(parsed.label, user.email);
    assert.match(started.body.qrSvg, /^<svg[\s\S]*<\/svg>\s*$/);
    // Pending: a login still needs no code.
    clock.advance(30);
    assert.equal((await login(client, user)).status, 200);
    const wrong = await client.call('POST', '/api/v1/user/mfa/totp/confirm', {
      token: user.token,
      body: { code: '000000' === codeAt(started.body.secret, clock) ? '111111' : '000000' },
    });
    expectCode(wrong, 401, 'INVALID_LOGIN');
    const confirmed = await client.call('POST', '/api/v1/user/mfa/totp/confirm', {
      token: user.token,
      body: { code: codeAt(started.body.secret, clock) },
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.recoveryCodes.length, 10);
    assert.equal(new Set(confirmed.body.recoveryCodes).size, 10);
    const serviceKey = await server.createServiceKey();
    const audit = await client.call('GET', `/api/v1/audit?type=user.mfa_enabled`, { serviceKey });
    assert.equal(audit.status, 200, audit.text);
    const event = audit.body.events.find(
      (one: { data: { userId: string } }) => one.data.userId === user.userId,
    );
    assert.equal(event?.actor.kind, 'user');
    assert.doesNotMatch(audit.text, new RegExp(started.body.secret));
  });

  it('stops a password login at 401 MFA_REQUIRED; POST /auth/mfa with a code finishes it, and the code is good once', async () => {
    const user = await enrolTotp(client, clock);
    clock.advance(30);
    const stopped = await login(client, user);
    expectCode(stopped, 401, 'MFA_REQUIRED');
    assert.deepEqual(stopped.body.methods, ['totp', 'recoveryCode']);
    assert.equal(stopped.body.token, undefined);
    assert.equal(stopped.body.refreshToken, undefined);
    const code = codeAt(user.secret, clock);
    const done = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: stopped.body.mfaToken, code },
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.userId, user.userId);
    const profile = await client.call('GET', '/api/v1/user', { token: done.body.token });
    assert.equal(profile.status, 200);
    // The same mfaToken is spent; a new one with the same code is a replay.
    const again = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: stopped.body.mfaToken, code },
    });
    expectCode(again, 401, 'INVALID_TOKEN');
    const second = await login(client, user);
    const replay = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: second.body.mfaToken, code },
    });
    expectCode(replay, 401, 'INVALID_LOGIN');
    // The code that confirmed the enrolment was spent too: its step is taken.
    clock.advance(30);
    const next = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: second.body.mfaToken, code: codeAt(user.secret, clock) },
    });
    assert.equal(next.status, 200, next.text);
  });

  it('a recovery code works once', async () => {
    const user = await enrolTotp(client, clock);
    const [recoveryCode] = user.recoveryCodes;
    const first = await login(client, user);
    const done = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: first.body.mfaToken, recoveryCode: recoveryCode!.toUpperCase() },
    });
    assert.equal(done.status, 200, done.text);
    const second = await login(client, user);
    const spent = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: second.body.mfaToken, recoveryCode },
    });
    expectCode(spent, 401, 'INVALID_LOGIN');
    const other = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: second.body.mfaToken, recoveryCode: user.recoveryCodes[1] },
    });
    assert.equal(other.status, 200, other.text);
  });

  it('five wrong codes end the mfaToken', async () => {
    const user = await enrolTotp(client, clock);
    clock.advance(30);
    const stopped = await login(client, user, '127.0.0.3');
    const right = codeAt(user.secret, clock);
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await client.call('POST', '/api/v1/auth/mfa', {
        body: { mfaToken: stopped.body.mfaToken, code: wrongCode },
        localAddress: '127.0.0.3',
      });
      expectCode(wrong, 401, 'INVALID_LOGIN');
    }
    const ended = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: stopped.body.mfaToken, code: right },
      localAddress: '127.0.0.3',
    });
    expectCode(ended, 401, 'INVALID_TOKEN');
  });

  it('an mfaToken expires after 5 minutes', async () => {
    const user = await enrolTotp(client, clock);
    const stopped = await login(client, user);
    clock.advance(5 * 60 + 1);
    const late = await client.call('POST', '/api/v1/auth/mfa', {
      body: { mfaToken: stopped.body.mfaToken, code: codeAt(user.secret, clock) },
    });
    expectCode(late, 401, 'INVALID_TOKEN');
  });

  it('unknown accounts and wrong passwords answer as before: INVALID_LOGIN, no mfaToken', async () => {
    const user = await enrolTotp(client, clock);
    const wrong = await login(client, { email: user.email, password: 'not the password' });
    const unknown = await login(client, { email: 'nobody@example.com', password: 'not the password' });
    for (const answer of [wrong, unknown]) {
      expectCode(answer, 401, 'INVALID_LOGIN');
      assert.equal(answer.body.mfaToken, undefined);
    }
    assert.deepEqual(Object.keys(wrong.body).sort(), Object.keys(unknown.body).sort());
  });

  it('removing the factor needs a code; then a login needs none', async () => {
    const user = await enrolTotp(client, clock);
    const noProof = await client.call('DELETE', '/api/v1/user/mfa/totp', { token: user.token, body: {} });
    expectCode(noProof, 400, 'VALIDATION_FAILED');
    const badCode = await client.call('DELETE', '/api/v1/user/mfa/totp', {
      token: user.token,
      body: { recoveryCode: 'aaaa-bbbb-cccc-dddd' },
    });
    expectCode(badCode, 401, 'INVALID_LOGIN');
    const removed = await client.call('DELETE', '/api/v1/user/mfa/totp', {
      token: user.token,
      body: { recoveryCode: user.recoveryCodes[0] },
    });
    assert.equal(removed.status, 204, removed.text);
    assert.equal((await login(client, user)).status, 200);
    const serviceKey = await server.createServiceKey();
    const audit = await client.call('GET', `/api/v1/audit?type=user.mfa_disabled`, { serviceKey });
    assert.ok(audit.body.events.some((one: { data: { userId: string } }) => one.data.userId === user.userId));
  });

  it('enrolling needs the password once the sign-in is older than 5 minutes', async () => {
    const user = await client.signup();
    clock.advance(5 * 60 + 1);
    const stale = await client.call('POST', '/api/v1/user/mfa/totp', { token: user.token });
    expectCode(stale, 403, 'REAUTHENTICATION_REQUIRED');
    const withPassword = await client.call('POST', '/api/v1/user/mfa/totp', {
      token: user.token,
      body: { password: user.password },
    });
    assert.equal(withPassword.status, 200, withPassword.text);
  });

  it('a code from another secret (a stock TOTP) is refused', async () => {
    const user = await enrolTotp(client, clock);
    clock.advance(30);
    const stopped = await login(client, user);
    const stranger = new TOTP({ secret: new Secret() }).generate({ timestamp: clock.now().getTime() });
    const refused = await client.call('POST', '/api/v1/auth/mfa', {
      body: {
        mfaToken: stopped.body.mfaToken,
        code: stranger === codeAt(user.secret, clock) ? '000000' : stranger,
      },
    });
    expectCode(refused, 401, 'INVALID_LOGIN');
  });

  it('@coffer/client: enrols, then login throws MFA_REQUIRED with the mfaToken that mfa.complete takes', async () => {
    const app = new CofferClient({
      baseUrl: server.baseUrl,
      appId: client.credentials.appId,
      appSecret: client.credentials.appSecret,
    });
    const email = `client-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    await app.signup({ email, password });
    const { secret } = await app.mfa.startTotp();
    const recoveryCodes = await app.mfa.confirmTotp(codeAt(secret, clock));
    assert.equal(recoveryCodes.length, 10);
    await app.logout();
    const stopped = await app.login({ email, password }).catch((error: unknown) => error);
    assert.ok(stopped instanceof CofferError);
    assert.equal(stopped.code, 'MFA_REQUIRED');
    assert.deepEqual(stopped.methods, ['totp', 'recoveryCode']);
    clock.advance(30);
    const session = await app.mfa.complete(stopped.mfaToken!, { code: codeAt(secret, clock) });
    assert.equal(app.session?.token, session.token);
    await app.mfa.removeTotp({ recoveryCode: recoveryCodes[0]! });
    await app.logout();
    await app.login({ email, password });
  });
});
