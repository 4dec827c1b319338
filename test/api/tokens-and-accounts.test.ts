import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSigner } from 'fast-jwt';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

describe('tokens, accounts and logins', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR: '3' });
  });
  after(() => server.stop());

  it('login answers token, userId and expiry; the token has the required claims', async () => {
    const { userId } = await server.client.signup('login@example.com', 'correct horse');
    // A stale Authorization header on a login is ignored (the original SDKs send one).
    const response = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email: 'Login@Example.com', password: 'correct horse' },
      headers: { authorization: 'Bearer stale.token.here', 'content-type': 'application/json;charset=UTF-8' },
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.userId, userId);
    const claims = JSON.parse(Buffer.from(response.body.token.split('.')[1], 'base64url').toString());
    const header = JSON.parse(Buffer.from(response.body.token.split('.')[0], 'base64url').toString());
    assert.equal(header.alg, 'HS256');
    assert.equal(claims.sub, userId);
    assert.equal(claims.aud, server.credentials.projectId);
    assert.equal(claims.iss, 'coffer');
    assert.equal(claims.exp - claims.iat, 3600, 'default lifetime is one hour');
    assert.equal(response.body.expiresAt, claims.exp);
    assert.equal(response.body.expires, new Date(claims.exp * 1000).toISOString());
    const profile = await server.client.call('GET', '/api/v1/user', {
      token: response.body.token,
      headers: { accept: 'application/json' },
    });
    assert.equal(profile.status, 200);
    assert.equal(profile.body._id, userId);
    assert.equal(profile.body.role, 'user');
    assert.deepEqual(profile.body.emails, [{ email: 'login@example.com', primary: true, verified: false }]);
    assert.deepEqual(profile.body.accountState, { enabled: true, expired: false });
    assert.deepEqual(
      [profile.body.providers, profile.body.devices, profile.body.ownerId, profile.body.picture],
      [[], [], null, null],
    );
    assert.match(profile.body.__createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(profile.body.__v, 0);
  });

  it('an expired token is TOKEN_EXPIRED; a token signed with another key is INVALID_TOKEN', async () => {
    const { userId } = await server.client.signup();
    const [key] = await server.services.repositories.signingKeys.list('token');
    const now = Math.floor(Date.now() / 1000);
    const sign = createSigner({ key: key!.secret, algorithm: 'HS256', kid: key!.id });
    const expired = sign({
      sub: userId,
      aud: server.credentials.projectId,
      iss: 'coffer',
      iat: now - 7200,
      exp: now - 3600,
    });
    const expiredResponse = await server.client.call('GET', '/api/v1/user', { token: expired });
    assert.equal(expiredResponse.status, 401);
    assert.equal(expiredResponse.body.code, 'TOKEN_EXPIRED');
    const forged = createSigner({ key: 'x'.repeat(32), algorithm: 'HS256', kid: key!.id })({
      sub: userId,
      aud: server.credentials.projectId,
      iss: 'coffer',
    });
    assert.equal(
      (await server.client.call('GET', '/api/v1/user', { token: forged })).body.code,
      'INVALID_TOKEN',
    );
    const noIssuer = sign({ sub: userId, aud: server.credentials.projectId, iat: now, exp: now + 60 });
    assert.equal(
      (await server.client.call('GET', '/api/v1/user', { token: noIssuer })).body.code,
      'INVALID_TOKEN',
    );
  });

  it('a disabled account is refused at once, token or login', async () => {
    const user = await server.client.signup('disabled@example.com', 'correct horse');
    assert.equal((await server.client.call('GET', '/api/v1/user', { token: user.token })).status, 200);
    await server.services.repositories.users.setEnabled(server.credentials.projectId, user.userId, false);
    const refused = await server.client.call('GET', '/api/v1/user', { token: user.token });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'ACCOUNT_DISABLED');
    const login = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(login.body.code, 'ACCOUNT_DISABLED');
  });

  it('failed logins are limited per account and client address, with Retry-After', async () => {
    const target = await server.client.signup('target@example.com', 'correct horse');
    const attempt = (password: string, localAddress: string) =>
      server.client.call('POST', '/api/v1/auth/login', {
        body: { email: 'target@example.com', password },
        localAddress,
      });
    for (let i = 0; i < 3; i++)
      assert.equal((await attempt('guess guess', '127.0.0.1')).body.code, 'INVALID_LOGIN');
    const limited = await attempt('guess guess', '127.0.0.1');
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await attempt(target.password, '127.0.0.1')).status, 429);
    // The owner on another address is not locked out (test/api/rate-limits.test.ts has more).
    assert.equal((await attempt(target.password, '127.0.0.2')).status, 200);
  });

  it('an unknown email costs about as much as a wrong password', async () => {
    await server.client.signup('timing@example.com', 'correct horse');
    await server.client.signup('warmup@example.com', 'correct horse');
    // The cost is the CPU time this process spends on the login (the server runs in it, and
    // argon2 runs on libuv's threads, which count too), not the wall time: on a loaded machine
    // the wall time follows the load, and a ratio of two of them says nothing about the server.
    const cost = async (email: string) => {
      const before = process.cpuUsage();
      const r = await server.client.call('POST', '/api/v1/auth/login', {
        body: { email, password: 'wrong password' },
        headers: { 'x-forwarded-for': email },
      });
      assert.equal(r.body.code, 'INVALID_LOGIN');
      const { user, system } = process.cpuUsage(before);
      return (user + system) / 1000;
    };
    // Each path once first: its first call also pays for compiling its code.
    await cost('warmup@example.com');
    await cost('nobody-warmup@example.com');
    const known = await cost('timing@example.com');
    const unknown = await cost('nobody-at-all@example.com');
    console.log(
      `# CPU time of a login: unknown email ${unknown.toFixed(1)} ms, wrong password ${known.toFixed(1)} ms`,
    );
    // Both pay one argon2id (tens of ms of CPU); a skipped hash would cost a millisecond or two.
    assert.ok(
      unknown > known / 4,
      `CPU time: unknown ${unknown.toFixed(1)} ms vs known ${known.toFixed(1)} ms`,
    );
  });
});
