import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StoredEvent } from '../../src/domain/events/event.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Issue 22: what the event log records, with whom and from where, and what it never records. */
describe('the event log', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  const eventsOf = async (filter: (event: StoredEvent) => boolean) => {
    const { projectId } = server.credentials;
    const events = await server.services.repositories.events.search({ projectId, limit: 1000 });
    return events.filter(filter).reverse();
  };
  const userAgent = 'coffer-events-test/1';

  it('accounts: signup, login (and a failed one), password change and logout, with address and user agent', async () => {
    const email = `events-${Date.now()}@example.com`;
    const password = 'a long enough password 1';
    const headers = { 'user-agent': userAgent };
    const signup = await server.client.call('POST', '/api/v1/auth/signup', {
      body: { email, password },
      headers,
    });
    assert.equal(signup.status, 200, signup.text);
    const userId = signup.body.userId as string;
    const failed = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email, password: 'wrong password here' },
      headers,
    });
    assert.equal(failed.status, 401);
    const login = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email, password },
      headers,
    });
    assert.equal(login.status, 200);
    const newPassword = 'another long password 2';
    const changed = await server.client.call('POST', '/api/v1/auth/password', {
      token: login.body.token,
      body: { oldPassword: password, newPassword },
      headers,
    });
    assert.ok(changed.status < 300, changed.text);
    const logout = await server.client.call('POST', '/api/v1/auth/logout', {
      token: login.body.token,
      body: { refreshToken: login.body.refreshToken },
      headers,
    });
    assert.ok(logout.status < 300, logout.text);

    const events = await eventsOf((event) => event.data.userId === userId);
    assert.deepEqual(
      events.map((event) => event.type),
      [
        'user.created',
        'user.login',
        'user.login_failed',
        'user.login',
        'user.password_changed',
        'user.logout',
      ],
    );
    for (const event of events) {
      assert.deepEqual(
        { kind: event.actor.kind, id: event.actor.id, ip: event.actor.ip, userAgent: event.actor.userAgent },
        { kind: 'user', id: userId, ip: '127.0.0.1', userAgent },
        event.type,
      );
      // security: no password, hash or token in any event.
      const text = JSON.stringify(event);
      for (const secret of [password, newPassword, login.body.token, login.body.refreshToken])
        assert.ok(!text.includes(secret), `${event.type} holds a secret`);
    }
    assert.equal(events[2]!.data.reason, 'INVALID_LOGIN');
    // How each session began (issue 37, item 6): the signup's and the login's, both by password.
    assert.deepEqual(
      events.filter((event) => event.type === 'user.login').map((event) => event.data.method),
      ['password', 'password'],
    );
  });

  it('a change that did not happen records nothing: a repeated share, a refused verify', async () => {
    const alice = await server.client.signup();
    const bob = await server.client.signup();
    const file = await server.client.uploadFile(
      alice.token,
      `events/twice-${Date.now()}.txt`,
      'shared twice',
    );
    for (let i = 0; i < 2; i++) {
      const shared = await server.client.call('POST', `/api/v1/file/${file._id}/acl/user/${bob.userId}`, {
        token: alice.token,
      });
      assert.equal(shared.status, 200);
    }
    assert.equal(
      (await eventsOf((event) => event.fileId === file._id && event.type === 'file.shared')).length,
      1,
    );
    assert.equal(
      (await eventsOf((event) => event.fileId === file._id && event.type === 'file.uploaded')).length,
      1,
    );

    // A verify whose etag does not match is refused: no file.uploaded for it.
    const requested = await server.client.call('POST', '/api/v1/file', {
      token: alice.token,
      body: { filePath: `events/refused-${Date.now()}.txt` },
    });
    const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'bytes' });
    assert.equal(put.status, 200);
    const refused = await server.client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token: alice.token,
      body: { etag: '"0123456789abcdef0123456789abcdef"' },
    });
    assert.equal(refused.status, 409);
    assert.deepEqual(await eventsOf((event) => event.fileId === requested.body.fileId), []);
  });

  it('events are ordered, sortable ids, and hold the actor of a file change', async () => {
    const alice = await server.client.signup();
    const file = await server.client.uploadFile(alice.token, `events/order-${Date.now()}.txt`, 'order');
    const moved = await server.client.call('POST', `/api/v1/file/${file._id}/move`, {
      token: alice.token,
      body: { filePath: `events/moved-${Date.now()}.txt` },
    });
    assert.equal(moved.status, 200, moved.text);
    const events = await eventsOf((event) => event.fileId === file._id);
    assert.deepEqual(
      events.map((event) => event.type),
      ['file.uploaded', 'file.updated'],
    );
    assert.ok(events[0]!.seq < events[1]!.seq && events[0]!.id < events[1]!.id);
    assert.equal(events[1]!.data.change, 'move');
    assert.equal(events[1]!.actor.id, alice.userId);
  });
});
