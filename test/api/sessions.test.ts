import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toTokenHash } from '../../src/domain/identity/refresh-token-service.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

// Refresh tokens, logout and password change (docs/security.md, "Sessions"), over real HTTP.
describe('sessions: refresh, logout, password change', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let client: ApiClient;
  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_REFRESH_TOKEN_REUSE_GRACE_SECONDS: '10',
        COFFER_REFRESH_TOKEN_TTL_SECONDS: '3600',
        COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR: '3',
      },
      { clock },
    );
    client = server.client;
  });
  after(() => server.stop());

  const login = async (email: string, password: string) => {
    const response = await client.call('POST', '/api/v1/auth/login', { body: { email, password } });
    assert.equal(response.status, 200, response.text);
    return response.body as { token: string; refreshToken: string; userId: string };
  };
  const refresh = (refreshToken: string, on = client) =>
    on.call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
  const signup = async () => {
    const email = `${Math.random().toString(36).slice(2)}@example.com`;
    const response = await client.call('POST', '/api/v1/auth/signup', {
      body: { email, password: 'correct horse battery' },
    });
    assert.equal(response.status, 200, response.text);
    return { ...(response.body as { token: string; refreshToken: string; userId: string }), email };
  };
  const expectCode = (
    response: { status: number; body: { code?: string } },
    status: number,
    code: string,
  ) => {
    assert.equal(response.status, status, JSON.stringify(response.body));
    assert.equal(response.body.code, code);
  };

  it('signup and login answer an opaque 256-bit refresh token; refresh rotates it, single use', async () => {
    const user = await signup();
    assert.match(user.refreshToken, /^[A-Za-z0-9_-]{43}$/);
    const session = await login(user.email, 'correct horse battery');
    assert.notEqual(session.refreshToken, user.refreshToken);
    clock.advance(5);
    const rotated = await refresh(session.refreshToken);
    assert.equal(rotated.status, 200, rotated.text);
    assert.equal(rotated.body.userId, user.userId);
    assert.notEqual(rotated.body.refreshToken, session.refreshToken);
    assert.notEqual(rotated.body.token, session.token);
    assert.equal(rotated.body.expiresAt, clock.seconds + 3600);
    const profile = await client.call('GET', '/api/v1/user', { token: rotated.body.token });
    assert.equal(profile.status, 200);
    assert.equal(profile.body._id, user.userId);
    // Stored hashed: the database holds no token in clear.
    const tokens = server.services.repositories.refreshTokens;
    assert.equal(await tokens.findByHash(rotated.body.refreshToken), undefined);
    assert.equal((await tokens.findByHash(toTokenHash(rotated.body.refreshToken)))?.userId, user.userId);
    // The next token rotates in turn.
    assert.equal((await refresh(rotated.body.refreshToken)).status, 200);
  });

  it('a retired token reused within the grace answers the same successor and revokes nothing', async () => {
    const user = await signup();
    const first = await refresh(user.refreshToken);
    assert.equal(first.status, 200);
    clock.advance(10); // the grace, to the second
    const retry = await refresh(user.refreshToken);
    assert.equal(retry.status, 200, retry.text);
    // Issue 23, item 9: never a second live branch (more in session-reuse.test.ts).
    assert.equal(retry.body.refreshToken, first.body.refreshToken);
    assert.equal((await refresh(first.body.refreshToken)).status, 200);
  });

  it('a retired token reused after the grace revokes its whole family, the newest token too', async () => {
    const user = await signup();
    const other = await login(user.email, 'correct horse battery'); // another family
    const first = await refresh(user.refreshToken);
    const second = await refresh(first.body.refreshToken);
    assert.equal(second.status, 200);
    clock.advance(11);
    expectCode(await refresh(user.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    expectCode(await refresh(second.body.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    expectCode(await refresh(first.body.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    assert.equal((await refresh(other.refreshToken)).status, 200, 'the other login is untouched');
  });

  it('refuses unknown, expired, malformed and other projects’ tokens', async () => {
    expectCode(await refresh('A'.repeat(43)), 401, 'INVALID_REFRESH_TOKEN');
    expectCode(await client.call('POST', '/api/v1/auth/refresh', { body: {} }), 400, 'VALIDATION_FAILED');
    expectCode(await refresh('x'.repeat(257)), 400, 'VALIDATION_FAILED');
    const user = await signup();
    const otherApp = await server.createProject(`other-${Date.now()}`);
    expectCode(await refresh(user.refreshToken, otherApp), 401, 'INVALID_REFRESH_TOKEN');
    expectCode(
      await client.call('POST', '/api/v1/auth/refresh', {
        body: { refreshToken: user.refreshToken },
        anonymous: true,
      }),
      401,
      'APP_CREDENTIALS_REQUIRED',
    );
    clock.advance(3601);
    expectCode(await refresh(user.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
  });

  it('expired families are deleted a few at a time by later logins', async () => {
    const users = [await signup(), await signup(), await signup()];
    clock.advance(3601);
    const tokens = server.services.repositories.refreshTokens;
    const remaining = async () => {
      let count = 0;
      for (const user of users) if (await tokens.findByHash(toTokenHash(user.refreshToken))) count++;
      return count;
    };
    assert.equal(await remaining(), 3, 'an expired family stays until a write sweeps it');
    // Each login deletes at most two expired families, oldest first (earlier tests left some).
    let logins = 0;
    while ((await remaining()) > 0) {
      assert.ok(++logins <= 100, 'the expired families were never swept');
      await login(users[0]!.email, 'correct horse battery');
    }
  });

  it('a disabled account cannot refresh', async () => {
    const user = await signup();
    await server.services.repositories.users.setEnabled(server.credentials.projectId, user.userId, false);
    expectCode(await refresh(user.refreshToken), 403, 'ACCOUNT_DISABLED');
    await server.services.repositories.users.setEnabled(server.credentials.projectId, user.userId, true);
    assert.equal((await refresh(user.refreshToken)).status, 200, 'the refusal spent nothing');
  });

  it('logout by refresh token or by bearer revokes the family, and nothing else', async () => {
    const user = await signup();
    const other = await login(user.email, 'correct horse battery');
    const rotated = await refresh(user.refreshToken);
    const byBody = await client.call('POST', '/api/v1/auth/logout', {
      body: { refreshToken: rotated.body.refreshToken },
    });
    assert.equal(byBody.status, 204, byBody.text);
    expectCode(await refresh(rotated.body.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    // Idempotent: the token is already dead.
    const again = await client.call('POST', '/api/v1/auth/logout', {
      body: { refreshToken: rotated.body.refreshToken },
    });
    assert.equal(again.status, 204);
    const byBearer = await client.call('POST', '/api/v1/auth/logout', { token: other.token });
    assert.equal(byBearer.status, 204, byBearer.text);
    expectCode(await refresh(other.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    const third = await login(user.email, 'correct horse battery');
    assert.equal((await refresh(third.refreshToken)).status, 200, 'a new login works');
    expectCode(await client.call('POST', '/api/v1/auth/logout', {}), 401, 'AUTH_REQUIRED');
    expectCode(
      await client.call('POST', '/api/v1/auth/logout', { token: 'not.a.token' }),
      401,
      'INVALID_TOKEN',
    );
  });

  it('a password change revokes every other session and keeps the caller’s', async () => {
    const user = await signup();
    const phone = await login(user.email, 'correct horse battery');
    const laptop = await login(user.email, 'correct horse battery');
    const changed = await client.call('POST', '/api/v1/auth/password', {
      token: laptop.token,
      body: { oldPassword: 'correct horse battery', newPassword: 'staple grease cartridge' },
    });
    assert.equal(changed.status, 204, changed.text);
    expectCode(await refresh(phone.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    expectCode(await refresh(user.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    assert.equal((await refresh(laptop.refreshToken)).status, 200, 'the caller goes on');
    expectCode(
      await client.call('POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'correct horse battery' },
      }),
      401,
      'INVALID_LOGIN',
    );
    await login(user.email, 'staple grease cartridge');
  });

  it('a password change needs a bearer token, the old password and a new one within the policy', async () => {
    const user = await signup();
    const change = (body: unknown, token: string | null = user.token) =>
      client.call('POST', '/api/v1/auth/password', { token: token ?? undefined, body });
    expectCode(await change({ oldPassword: 'x', newPassword: 'y' }, null), 401, 'AUTH_REQUIRED');
    for (const newPassword of ['short', 'x'.repeat(1025), 'Password1', 'qwertyuiop', 'ILOVEYOU']) {
      expectCode(
        await change({ oldPassword: 'correct horse battery', newPassword }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expectCode(await change({ oldPassword: 'correct horse battery' }), 400, 'VALIDATION_FAILED');
    assert.equal((await refresh(user.refreshToken)).status, 200, 'refusals revoke nothing');
  });

  it('a wrong old password is INVALID_LOGIN, rate-limited as failed logins of the account', async () => {
    const user = await signup();
    const change = (oldPassword: string) =>
      client.call('POST', '/api/v1/auth/password', {
        token: user.token,
        body: { oldPassword, newPassword: 'staple grease cartridge' },
      });
    for (let i = 0; i < 3; i++) expectCode(await change('guess guess'), 401, 'INVALID_LOGIN');
    const limited = await change('correct horse battery');
    expectCode(limited, 429, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    // The same buckets as the login form: the login from this address is limited too.
    expectCode(
      await client.call('POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'guess guess' },
      }),
      429,
      'RATE_LIMITED',
    );
  });

  it('signup refuses a common password, whatever its case', async () => {
    for (const password of ['password123', 'Sunshine1', 'short']) {
      expectCode(
        await client.call('POST', '/api/v1/auth/signup', {
          body: { email: `${password}@example.com`, password },
        }),
        400,
        'VALIDATION_FAILED',
      );
    }
  });
});
