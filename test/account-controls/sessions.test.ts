import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, type CofferError } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

/**
 * A user's own sessions (issue 41, item 4): GET /api/v1/user/sessions lists where and how
 * each began; DELETE …/sessions/:id ends one and DELETE …/sessions all but the caller's, as
 * logout does (refresh and access tokens refused at once), with user.session_ended each. On
 * both workers of `serve --workers 2`: sessions-workers.test.ts.
 */
type Login = { token: string; refreshToken: string; userId: string };
const password = 'correct horse battery';
const refused = '401 INVALID_TOKEN';

function sessionOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
}

describe('a user sees and ends their own sessions', () => {
  const clock = new ManualClock();
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
  });
  after(() => server?.stop());

  const login = async (email: string, userAgent = 'Coffer-Test/1.0'): Promise<Login> => {
    clock.advance(1); // one sign-in a second: the list's order is theirs
    const response = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email, password },
      headers: { 'user-agent': userAgent },
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const list = async (token: string) => {
    const response = await server.client.call('GET', '/api/v1/user/sessions', { token });
    assert.equal(response.status, 200, response.text);
    return response.body as Array<Record<string, unknown>>;
  };
  const endOne = (token: string, sessionId: string) =>
    server.client.call('DELETE', `/api/v1/user/sessions/${sessionId}`, { token });
  const profile = async (token: string) => {
    const response = await server.client.call('GET', '/api/v1/user', { token });
    return response.status === 200 ? 200 : `${response.status} ${response.body.code}`;
  };
  const refresh = async (refreshToken: string) => {
    const response = await server.client.call('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
    return response.status === 200 ? 200 : `${response.status} ${response.body.code}`;
  };
  const endedEvents = async (userId: string) => {
    const { projectId } = server.credentials;
    const events = await server.services.repositories.events.search({ projectId, limit: 1000 });
    return events.filter((event) => event.type === 'user.session_ended' && event.data.userId === userId);
  };

  it('lists the live sessions newest first: address, user agent, how it began, and which is the caller’s', async () => {
    const user = await server.client.signup();
    const phone = await login(user.email, 'Phone/2.0 (like a phone)');
    const laptop = await login(user.email, 'Laptop/3.0');
    await server.client.signup(); // another user's sessions are not listed
    const sessions = await list(phone.token);
    assert.deepEqual(
      sessions.map(({ id, userAgent, method, current }) => ({ id, userAgent, method, current })),
      [
        { id: sessionOf(laptop.token), userAgent: 'Laptop/3.0', method: 'password', current: false },
        {
          id: sessionOf(phone.token),
          userAgent: 'Phone/2.0 (like a phone)',
          method: 'password',
          current: true,
        },
        { id: sessionOf(user.token), userAgent: sessions[2]!.userAgent, method: 'password', current: false },
      ],
    );
    for (const session of sessions) {
      assert.match(String(session.ip), /127\.0\.0\.1|::1/);
      assert.equal(session.createdAt, session.lastUsedAt, 'never refreshed: last used at its sign-in');
      assert.equal(Number.isNaN(Date.parse(String(session.createdAt))), false);
    }
    assert.equal(sessions[0]!.createdAt, clock.now().toISOString());
    const json = JSON.stringify(sessions);
    for (const secret of [phone.refreshToken, laptop.refreshToken, phone.token])
      assert.equal(json.includes(secret), false, 'no token in the list');
  });

  it('a guest’s session began `anonymous`, from the address it came from', async () => {
    const guests = await server.createProject('session-guests');
    const { projects } = server.services.repositories;
    const project = await projects.findById(guests.credentials.projectId);
    await projects.updateSettings(project!.id, { ...project!.settings, anonymousSignup: true });
    const signup = () => guests.call('POST', '/api/v1/auth/signup/anonymous', { localAddress: '127.0.0.5' });
    let guest = await signup();
    // The setting reaches this process within the access epoch's interval.
    for (const deadline = Date.now() + 30_000; guest.status !== 200 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      guest = await signup();
    }
    assert.equal(guest.status, 200, guest.text);
    const listed = await guests.call('GET', '/api/v1/user/sessions', { token: guest.body.token });
    assert.deepEqual(
      listed.body.map(({ ip, method, current }: Record<string, unknown>) => ({ ip, method, current })),
      [{ ip: '127.0.0.5', method: 'anonymous', current: true }],
    );
  });

  it('bounds the user agent it keeps; lastUsedAt moves with a refresh, not with a call', async () => {
    const user = await server.client.signup();
    const long = await login(user.email, `Agent/${'x'.repeat(1000)}`);
    const [first] = await list(long.token);
    assert.equal(String(first!.userAgent).length, 256);
    clock.advance(60);
    assert.equal(await profile(long.token), 200);
    const [afterCall] = await list(long.token);
    assert.equal(afterCall!.lastUsedAt, first!.createdAt, 'a call with the access token writes nothing');
    const rotated = await server.client.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: long.refreshToken },
    });
    assert.equal(rotated.status, 200, rotated.text);
    const [afterRefresh] = await list(rotated.body.token);
    assert.deepEqual(
      { id: afterRefresh!.id, createdAt: afterRefresh!.createdAt, lastUsedAt: afterRefresh!.lastUsedAt },
      { id: first!.id, createdAt: first!.createdAt, lastUsedAt: clock.now().toISOString() },
    );
  });

  it('ending one session refuses its access and refresh tokens at once; the others go on', async () => {
    const user = await server.client.signup();
    const phone = await login(user.email);
    const laptop = await login(user.email);
    assert.deepEqual([await profile(phone.token), await profile(laptop.token)], [200, 200]);
    const ended = await endOne(laptop.token, sessionOf(phone.token));
    assert.equal(ended.status, 204, ended.text);
    assert.equal(await profile(phone.token), refused);
    assert.equal(await refresh(phone.refreshToken), '401 INVALID_REFRESH_TOKEN');
    assert.deepEqual([await profile(laptop.token), await profile(user.token)], [200, 200]);
    assert.deepEqual(
      (await list(laptop.token)).map(({ id }) => id),
      [sessionOf(laptop.token), sessionOf(user.token)],
    );
    const [event, ...more] = await endedEvents(user.userId);
    assert.deepEqual(more, []);
    assert.deepEqual(event!.data, { userId: user.userId, role: 'user', sessionId: sessionOf(phone.token) });
    assert.deepEqual([event!.actor.kind, event!.actor.id], ['user', user.userId]);
    assert.equal(JSON.stringify(event).includes(phone.refreshToken), false);
    // Ended already: no such session any more.
    assert.equal((await endOne(laptop.token, sessionOf(phone.token))).body.code, 'SESSION_NOT_FOUND');
    // Ending the caller's own is a logout.
    assert.equal((await endOne(laptop.token, sessionOf(laptop.token))).status, 204);
    assert.equal(await profile(laptop.token), refused);
  });

  it('ending all keeps the caller’s session and ends every other, an event each', async () => {
    const user = await server.client.signup();
    const others = [await login(user.email), await login(user.email)];
    const keeper = await login(user.email);
    const ended = await server.client.call('DELETE', '/api/v1/user/sessions', { token: keeper.token });
    assert.equal(ended.status, 204, ended.text);
    for (const other of [user, ...others]) {
      assert.equal(await profile(other.token), refused);
      assert.equal(await refresh(other.refreshToken), '401 INVALID_REFRESH_TOKEN');
    }
    assert.equal(await profile(keeper.token), 200);
    assert.equal(await refresh(keeper.refreshToken), 200);
    const sessions = await list(keeper.token);
    assert.deepEqual(
      sessions.map(({ id, current }) => ({ id, current })),
      [{ id: sessionOf(keeper.token), current: true }],
    );
    const events = await endedEvents(user.userId);
    assert.deepEqual(
      new Set(events.map((event) => event.data.sessionId)),
      new Set([user, ...others].map((one) => sessionOf(one.token))),
    );
  });

  it('another user’s session id is 404 SESSION_NOT_FOUND and that session goes on; a service key has none', async () => {
    const mine = await server.client.signup();
    const theirs = await server.client.signup();
    for (const id of [sessionOf(theirs.token), 'no-such-session']) {
      const answer = await endOne(mine.token, id);
      assert.equal(`${answer.status} ${answer.body.code}`, '404 SESSION_NOT_FOUND', id);
    }
    assert.equal(await profile(theirs.token), 200);
    assert.equal(await refresh(theirs.refreshToken), 200);
    assert.deepEqual(await endedEvents(theirs.userId), []);
    const serviceKey = await server.createServiceKey();
    const byKey = await server.client.call('GET', '/api/v1/user/sessions', { serviceKey });
    assert.equal(`${byKey.status} ${byKey.body.code}`, '403 ACCESS_DENIED');
    const anonymous = await server.client.call('GET', '/api/v1/user/sessions');
    assert.equal(anonymous.status, 401);
  });
});

describe('@coffer/client: client.sessions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('lists the sessions, ends one and the others', async () => {
    const user = await server.client.signup();
    const signIn = async () => {
      const { appId, appSecret } = server.credentials;
      const client = new CofferClient({ baseUrl: server.baseUrl, appId, appSecret });
      await client.login({ email: user.email, password });
      return client;
    };
    const [phone, laptop, tablet] = [await signIn(), await signIn(), await signIn()];
    const sessions = await laptop.sessions.list();
    assert.equal(sessions.length, 4);
    const own = sessions.filter((session) => session.current);
    assert.deepEqual(
      own.map(({ id }) => id),
      [sessionOf(laptop.session!.token)],
    );
    await laptop.sessions.end(sessionOf(phone.session!.token));
    await assert.rejects(phone.profile(), (error: CofferError) => error.status === 401);
    await assert.rejects(
      laptop.sessions.end('no-such-session'),
      (error: CofferError) => error.code === 'SESSION_NOT_FOUND',
    );
    await laptop.sessions.endOthers();
    await assert.rejects(tablet.profile(), (error: CofferError) => error.status === 401);
    assert.deepEqual(
      (await laptop.sessions.list()).map(({ id }) => id),
      [sessionOf(laptop.session!.token)],
    );
  });
});
