import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSigner } from 'fast-jwt';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

/**
 * Ending a session ends its access tokens at once (issue 23, item 8; docs/security.md,
 * "Sessions"), in the process that ended it: no wait anywhere here. Other processes and
 * nodes: test/stacks/session-end.test.ts.
 */
describe('sessions end with their access tokens', () => {
  const clock = new ManualClock();
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_REFRESH_TOKEN_REUSE_GRACE_SECONDS: '10',
        // Access tokens outlive refresh tokens here, to show that a session ends with its family.
        COFFER_REFRESH_TOKEN_TTL_SECONDS: '3600',
        COFFER_TOKEN_TTL_SECONDS: '7200',
      },
      { clock },
    );
  });
  after(() => server.stop());

  type Session = { token: string; refreshToken: string; userId: string };
  const login = async (email: string, password = 'correct horse battery'): Promise<Session> => {
    const response = await server.client.call('POST', '/api/v1/auth/login', { body: { email, password } });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const refresh = (refreshToken: string) =>
    server.client.call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
  /** The profile call's answer: 200, or the error code. */
  const profile = async (token: string) => {
    const response = await server.client.call('GET', '/api/v1/user', { token });
    return response.status === 200 ? 200 : `${response.status} ${response.body.code}`;
  };
  const refused = '401 INVALID_TOKEN';

  it('logout by refresh token ends every access token of the session, and no other session', async () => {
    const first = await server.client.signup();
    const other = await login(first.email);
    const rotated = await refresh(first.refreshToken);
    assert.equal(rotated.status, 200, rotated.text);
    // Both access tokens of the session are known to work (and so remembered as live).
    assert.deepEqual([await profile(first.token), await profile(rotated.body.token)], [200, 200]);
    const logout = await server.client.call('POST', '/api/v1/auth/logout', {
      body: { refreshToken: rotated.body.refreshToken },
    });
    assert.equal(logout.status, 204, logout.text);
    assert.deepEqual([await profile(first.token), await profile(rotated.body.token)], [refused, refused]);
    assert.equal(await profile(other.token), 200, 'another login of the user goes on');
  });

  it('logout by bearer ends the token it was called with', async () => {
    const user = await server.client.signup();
    assert.equal(await profile(user.token), 200);
    const logout = await server.client.call('POST', '/api/v1/auth/logout', { token: user.token });
    assert.equal(logout.status, 204, logout.text);
    assert.equal(await profile(user.token), refused);
    const again = await server.client.call('POST', '/api/v1/auth/logout', { token: user.token });
    assert.equal(`${again.status} ${again.body.code}`, refused, 'the ended session is no credential');
  });

  it('a password change ends every other session’s access tokens at once; the caller’s goes on', async () => {
    const user = await server.client.signup();
    const phone = await login(user.email);
    const laptop = await login(user.email);
    assert.deepEqual([await profile(user.token), await profile(phone.token)], [200, 200]);
    const changed = await server.client.call('POST', '/api/v1/auth/password', {
      token: laptop.token,
      body: { oldPassword: 'correct horse battery', newPassword: 'staple grease cartridge' },
    });
    assert.equal(changed.status, 204, changed.text);
    assert.deepEqual([await profile(user.token), await profile(phone.token)], [refused, refused]);
    assert.equal(await profile(laptop.token), 200);
    assert.equal((await refresh(laptop.refreshToken)).status, 200);
  });

  it('a refresh token reused after the grace ends the access tokens of its whole family', async () => {
    const user = await server.client.signup();
    const rotated = await refresh(user.refreshToken);
    assert.equal(rotated.status, 200, rotated.text);
    assert.deepEqual([await profile(user.token), await profile(rotated.body.token)], [200, 200]);
    clock.advance(11);
    assert.equal((await refresh(user.refreshToken)).body.code, 'INVALID_REFRESH_TOKEN');
    assert.deepEqual([await profile(user.token), await profile(rotated.body.token)], [refused, refused]);
  });

  it('an operator’s password reset and an account deletion end the user’s sessions', async () => {
    const { projectId } = server.credentials;
    const user = await server.client.signup();
    const other = await login(user.email);
    assert.deepEqual([await profile(user.token), await profile(other.token)], [200, 200]);
    const revoked = await server.services.repositories.refreshTokens.deleteUserFamilies(
      projectId,
      user.userId,
    );
    assert.equal(revoked, 2);
    // Deleted beside the refresh-token service (as the CLI and the reset mail do): the epoch's
    // trigger tells this process too, within its interval.
    await waitFor(
      async () => (await profile(user.token)) === refused && (await profile(other.token)) === refused,
    );
    const doomed = await server.client.signup();
    assert.equal(await profile(doomed.token), 200);
    assert.equal(await server.services.repositories.users.delete(projectId, doomed.userId), true);
    assert.equal(await profile(doomed.token), refused);
  });

  it('a session ends when its refresh tokens expire, and sweeping it changes nothing else', async () => {
    const user = await server.client.signup();
    clock.advance(1800);
    const fresh = await login(user.email);
    assert.deepEqual([await profile(user.token), await profile(fresh.token)], [200, 200]);
    clock.advance(1801); // the first family's refresh token expired; its access token has not
    assert.equal(await profile(user.token), refused);
    assert.equal(await profile(fresh.token), 200);
    // Later logins sweep expired families: that is no revocation of a live one.
    await login(user.email);
    assert.equal(await profile(fresh.token), 200);
  });

  it('refuses a token that names no session, or one that never existed', async () => {
    const user = await server.client.signup();
    const [key] = await server.services.repositories.signingKeys.list('token');
    const sign = createSigner({ key: key!.secret, algorithm: 'HS256', kid: key!.id });
    const claims = { sub: user.userId, aud: server.credentials.projectId, iss: 'coffer' };
    const iat = clock.seconds;
    assert.equal(await profile(sign({ ...claims, iat, exp: iat + 600 })), refused);
    assert.equal(await profile(sign({ ...claims, iat, exp: iat + 600, sid: 'no-such-session' })), refused);
    assert.equal(await profile(user.token), 200);
  });
});

/** Polls until `condition` holds: the epoch is re-read every 250 ms, so this takes a moment. */
async function waitFor(condition: () => Promise<boolean>) {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, 'the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
