import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

/** The session (`sid`) an access token speaks for. */
function sessionOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
}

/**
 * A refresh token spent again within the reuse grace answers the same successor as its first
 * use, never a second live branch of the session (issue 23, item 9; docs/decisions.md, "Reuse
 * grace"). Across workers and nodes: test/stacks/session-end.test.ts.
 */
describe('refresh reuse within the grace', () => {
  const clock = new ManualClock();
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_REFRESH_TOKEN_REUSE_GRACE_SECONDS: '10' }, { clock });
  });
  after(() => server.stop());

  const refresh = (refreshToken: string) =>
    server.client.call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
  const profile = async (token: string) =>
    (await server.client.call('GET', '/api/v1/user', { token })).status;

  it('answers the same successor, with an access token of the same session', async () => {
    const user = await server.client.signup();
    const first = await refresh(user.refreshToken);
    assert.equal(first.status, 200, first.text);
    clock.advance(10); // the grace, to the second
    const retry = await refresh(user.refreshToken);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.refreshToken, first.body.refreshToken);
    assert.equal(sessionOf(retry.body.token), sessionOf(first.body.token));
    assert.equal(sessionOf(first.body.token), sessionOf(user.token));
    assert.equal(await profile(retry.body.token), 200);
    // One branch: the successor rotates once, and then the retried token is refused too.
    const next = await refresh(first.body.refreshToken);
    assert.equal(next.status, 200, next.text);
    assert.notEqual(next.body.refreshToken, first.body.refreshToken);
    assert.equal((await refresh(user.refreshToken)).body.code, 'INVALID_REFRESH_TOKEN');
    // Refused within the grace, not a theft: the session goes on.
    assert.equal((await refresh(next.body.refreshToken)).status, 200);
    assert.equal(await profile(next.body.token), 200);
  });

  it('concurrent refreshes of one token all answer the same successor', async () => {
    const user = await server.client.signup();
    const answers = await Promise.all(Array.from({ length: 8 }, () => refresh(user.refreshToken)));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      answers.map(() => 200),
    );
    assert.equal(new Set(answers.map((answer) => answer.body.refreshToken)).size, 1);
    assert.equal(new Set(answers.map((answer) => sessionOf(answer.body.token))).size, 1);
    assert.equal((await refresh(answers[0]!.body.refreshToken)).status, 200);
  });

  it('after the grace, a reuse revokes the family as before', async () => {
    const user = await server.client.signup();
    const first = await refresh(user.refreshToken);
    clock.advance(11);
    assert.equal((await refresh(user.refreshToken)).body.code, 'INVALID_REFRESH_TOKEN');
    assert.equal((await refresh(first.body.refreshToken)).body.code, 'INVALID_REFRESH_TOKEN');
  });
});
