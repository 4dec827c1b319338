import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assignProjectSettings } from '../../src/domain/identity/assign-project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { startTestIssuer, type TestIssuer } from '../support/test-jwks-server.ts';
import { currentStackName } from '../support/test-stack.ts';

const audience = 'coffer-leaving-test';

/**
 * Issue 41, item 5: a user deletes their own account (DELETE /api/v1/user) over HTTP to the real
 * app: the proof it asks for, what goes with the account (files and their bytes, trash, quota,
 * shares, sessions), the event, and who may not (selfDeletion off, a service key, a trusted
 * issuer's token). A manual clock makes a session older than the 5 minutes of a recent sign-in.
 */
describe(`self-deletion (${currentStackName()} stack)`, () => {
  const clock = new ManualClock();
  let server: TestServer;
  let client: ApiClient;
  let issuer: TestIssuer;

  before(async () => {
    server = await startTestServer({}, { COFFER_OAUTH_ALLOW_PRIVATE: 'true' }, { clock });
    client = server.client;
    issuer = await startTestIssuer({ issuer: 'https://leaving.example' });
  });
  after(async () => {
    await server?.stop();
    await issuer?.stop();
  });

  /** A project of its own with these settings, set before any request reads it. */
  async function projectWith(name: string, assignments: string[]): Promise<ApiClient> {
    const target = await server.createProject(name);
    const { projects } = server.services.repositories;
    const project = (await projects.findById(target.credentials.projectId))!;
    await projects.updateSettings(project.id, assignProjectSettings(project, assignments));
    return target;
  }
  const usage = async (userId: string, projectId = client.credentials.projectId) =>
    (await server.services.repositories.storageUsage.find({ projectId, userId })).user.bytes;
  const eventsOf = async (userId: string, type: string) => {
    const { projectId } = client.credentials;
    const events = await server.services.repositories.events.search({ projectId, limit: 1000 });
    return events.filter((event) => event.type === type && event.data.userId === userId);
  };

  it('an older session proves it is its user: none is 403 REAUTHENTICATION_REQUIRED, a wrong password 401; the password deletes the account, its files, trash, quota, shares and sessions', async () => {
    const leaving = await client.signup();
    const other = await client.signup();
    const second = await client.call('POST', '/api/v1/auth/login', {
      body: { email: leaving.email, password: leaving.password },
    });
    assert.equal(second.status, 200, second.text);
    const kept = await client.uploadFile(
      leaving.token,
      'leaving/kept.txt',
      'the bytes that stay until it goes',
    );
    const trashed = await client.uploadFile(leaving.token, 'leaving/trashed.txt', 'bytes in the trash');
    assert.equal(
      (await client.call('DELETE', `/api/v1/file/${trashed._id}`, { token: leaving.token })).status,
      204,
    );
    const theirs = await client.uploadFile(other.token, 'shared/with-leaving.txt', 'shared');
    const share = await client.call('POST', `/api/v1/file/${theirs._id}/acl/user/${leaving.userId}`, {
      token: other.token,
    });
    assert.equal(share.status, 200, share.text);
    assert.ok((await usage(leaving.userId)) > 0, 'its files count toward its quota');

    clock.advance(6 * 60);
    const bare = await client.call('DELETE', '/api/v1/user', { token: leaving.token });
    assert.equal(bare.status, 403, bare.text);
    assert.equal(bare.body.code, 'REAUTHENTICATION_REQUIRED');
    const wrong = await client.call('DELETE', '/api/v1/user', {
      token: leaving.token,
      body: { password: 'not the password' },
    });
    assert.equal(wrong.status, 401, wrong.text);
    assert.equal(wrong.body.code, 'INVALID_LOGIN');
    assert.equal((await client.call('GET', '/api/v1/user', { token: leaving.token })).status, 200);

    const deleted = await client.call('DELETE', '/api/v1/user', {
      token: leaving.token,
      body: { password: leaving.password },
    });
    assert.equal(deleted.status, 204, deleted.text);

    // Its tokens are refused at once, both sessions' (access and refresh), and it cannot sign in.
    for (const token of [leaving.token, second.body.token])
      assert.equal((await client.call('GET', '/api/v1/user', { token })).status, 401);
    const refreshed = await client.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: leaving.refreshToken },
    });
    assert.equal(refreshed.status, 401);
    const login = await client.call('POST', '/api/v1/auth/login', {
      body: { email: leaving.email, password: leaving.password },
    });
    assert.equal(login.status, 401);

    const serviceKey = await server.createServiceKey();
    for (const id of [kept._id, trashed._id]) {
      const gone = await client.call('GET', `/api/v1/file/${id}`, { serviceKey });
      assert.equal(gone.status, 404, `file ${id} is gone: ${gone.text}`);
    }
    assert.equal(await usage(leaving.userId), 0, 'its quota is freed');
    const acl = await client.call('GET', `/api/v1/file/${theirs._id}`, { token: other.token });
    assert.equal(acl.status, 200);
    assert.ok(!JSON.stringify(acl.body.acl).includes(leaving.userId), 'the share naming it is gone');

    const events = await eventsOf(leaving.userId, 'user.deleted');
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.method, 'self');
    assert.equal(events[0]!.actor.kind, 'user');
    assert.equal(events[0]!.actor.id, leaving.userId);
    // The address is free again.
    const again = await client.call('POST', '/api/v1/auth/signup', {
      body: { email: leaving.email, password: 'another good passphrase' },
    });
    assert.equal(again.status, 200, again.text);
  });

  it('a sign-in within 5 minutes is proof enough: no body', async () => {
    const leaving = await client.signup();
    const deleted = await client.call('DELETE', '/api/v1/user', { token: leaving.token });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal((await client.call('GET', '/api/v1/user', { token: leaving.token })).status, 401);
  });

  it('selfDeletion=false: 403 ACCESS_DENIED, before any password is tried; the account stays', async () => {
    const closed = await projectWith('no-leaving', ['selfDeletion=false']);
    const user = await closed.signup();
    const refused = await closed.call('DELETE', '/api/v1/user', {
      token: user.token,
      body: { password: 'a wrong password' },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'ACCESS_DENIED');
    assert.match(refused.body.message, /selfDeletion/);
    assert.equal((await closed.call('GET', '/api/v1/user', { token: user.token })).status, 200);
  });

  it('a service key and a trusted issuer’s token (no session) are refused with 403 ACCESS_DENIED', async () => {
    const serviceKey = await server.createServiceKey();
    const byKey = await client.call('DELETE', '/api/v1/user', { serviceKey });
    assert.equal(byKey.status, 403, byKey.text);
    assert.equal(byKey.body.code, 'ACCESS_DENIED');

    const trusting = await projectWith('leaving-trusted', [
      `trustedIssuers.corp.issuer=${issuer.issuer}`,
      `trustedIssuers.corp.jwksUrl=${issuer.jwksUrl}`,
      `trustedIssuers.corp.audience=${audience}`,
    ]);
    const token = await issuer.sign({ sub: 'bob', aud: audience, email: 'bob@leaving.example' });
    assert.equal((await trusting.call('GET', '/api/v1/user', { token })).status, 200);
    const byIssuer = await trusting.call('DELETE', '/api/v1/user', { token });
    assert.equal(byIssuer.status, 403, byIssuer.text);
    assert.equal(byIssuer.body.code, 'ACCESS_DENIED');
    assert.match(byIssuer.body.message, /trusted issuer/);
  });
});
