import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { currentStackName } from '../support/test-stack.ts';

function sessionOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
}

/**
 * Issue 41, item 6: an operator lists a user's sessions in the console and ends one or all of
 * them; the user's tokens are refused at once, and each end is a user.session_ended whose
 * actor is the operator.
 */
describe(`console: a user's sessions (${currentStackName()} stack)`, () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
  });
  after(() => coffer?.stop());

  const login = async (email: string, userAgent: string) => {
    const answer = await coffer.client.call('POST', '/api/v1/auth/login', {
      body: { email, password: 'correct horse battery' },
      headers: { 'user-agent': userAgent },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { token: string; refreshToken: string };
  };
  const profile = async (token: string) => {
    const answer = await coffer.client.call('GET', '/api/v1/user', { token });
    return answer.status === 200 ? 200 : answer.body.code;
  };
  const endedBy = async (userId: string) => {
    const audit = await call(
      'GET',
      `/projects/${coffer.credentials.projectId}/audit?type=user.session_ended`,
    );
    assert.equal(audit.status, 200);
    return (
      audit.body.events as Array<{
        actor: { kind: string; id: string | null };
        data: Record<string, unknown>;
      }>
    )
      .filter((event) => event.data.userId === userId)
      .map((event) => ({ kind: event.actor.kind, sessionId: event.data.sessionId }));
  };

  it('lists the sessions, ends one, then all; the operator is the actor', async () => {
    const user = await coffer.client.signup(`console-sessions-${Date.now()}@example.com`);
    const phone = await login(user.email, 'Phone/2.0');
    const path = `/projects/${coffer.credentials.projectId}/users/${user.userId}/sessions`;
    const listed = await call('GET', path);
    assert.equal(listed.status, 200);
    const sessions = listed.body.sessions as Array<Record<string, unknown>>;
    assert.deepEqual(
      new Set(sessions.map(({ id }) => id)),
      new Set([sessionOf(user.token), sessionOf(phone.token)]),
    );
    const phoneRow = sessions.find(({ id }) => id === sessionOf(phone.token))!;
    assert.deepEqual(
      { userAgent: phoneRow.userAgent, method: phoneRow.method, current: phoneRow.current },
      { userAgent: 'Phone/2.0', method: 'password', current: false },
    );

    const endOne = await call('DELETE', `${path}/${sessionOf(phone.token)}`);
    assert.equal(endOne.status, 204);
    assert.equal(await profile(phone.token), 'INVALID_TOKEN');
    assert.equal(await profile(user.token), 200);
    assert.equal((await call('DELETE', `${path}/${sessionOf(phone.token)}`)).body.code, 'SESSION_NOT_FOUND');

    const laptop = await login(user.email, 'Laptop/3.0');
    const endAll = await call('DELETE', path);
    assert.equal(endAll.status, 200);
    assert.deepEqual(endAll.body, { sessionsEnded: 2 });
    assert.deepEqual(
      [await profile(user.token), await profile(laptop.token)],
      ['INVALID_TOKEN', 'INVALID_TOKEN'],
    );
    assert.deepEqual((await call('GET', path)).body, { sessions: [] });
    const events = await endedBy(user.userId);
    assert.deepEqual(
      new Set(events.map(({ sessionId }) => sessionId)),
      new Set([phone, user, laptop].map(({ token }) => sessionOf(token))),
    );
    assert.deepEqual(new Set(events.map(({ kind }) => kind)), new Set(['operator']));
  });

  it('another user’s session id is 404; an unknown user is 404', async () => {
    const one = await coffer.client.signup(`console-sessions-a-${Date.now()}@example.com`);
    const other = await coffer.client.signup(`console-sessions-b-${Date.now()}@example.com`);
    const base = `/projects/${coffer.credentials.projectId}/users`;
    const crossed = await call('DELETE', `${base}/${one.userId}/sessions/${sessionOf(other.token)}`);
    assert.equal(`${crossed.status} ${crossed.body.code}`, '404 SESSION_NOT_FOUND');
    assert.equal(await profile(other.token), 200);
    const unknown = await call('GET', `${base}/nobody/sessions`);
    assert.equal(`${unknown.status} ${unknown.body.code}`, '404 USER_NOT_FOUND');
  });
});
