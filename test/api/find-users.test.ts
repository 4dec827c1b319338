import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/domain/ids.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

// Finding a user by email, and sharing with users that exist (issue 10, item 4), over real HTTP.
describe('finding users; sharing names users of the project, by id or by email', () => {
  let server: TestServer;
  let client: ApiClient;
  let other: ApiClient;
  let admin: Account;
  let owner: Account;
  let reader: Account;
  let stranger: Account;
  let outsider: Account;
  let fileId: string;
  before(async () => {
    server = await startTestServer();
    client = server.client;
    other = await server.createProject('elsewhere');
    const signup = (name: string) => client.signup(`${name}@Example.com`);
    [admin, owner, reader, stranger] = await Promise.all([
      signup('Admin'),
      signup('Owner'),
      signup('Reader.Plus+tag'),
      signup('Stranger'),
    ]);
    outsider = await other.signup('outsider@example.com');
    await server.services.repositories.users.setRole(client.credentials.projectId, admin.userId, 'admin');
    fileId = (await client.uploadFile(owner.token, 'shared/notes.txt', 'notes'))._id;
  });
  after(() => server.stop());

  const expectCode = (response: ApiResponse, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.equal(response.body.code, code);
  };
  const find = (email: string, as: Account, on = client) =>
    on.call('GET', `/api/v1/users?email=${encodeURIComponent(email)}`, { token: as.token });
  const share = (path: string, as: Account, method = 'POST') =>
    client.call(method, `/api/v1/file/${fileId}/acl/${path}`, { token: as.token });

  it('an admin finds a user by email, case-insensitively: the public profile, never a hash', async () => {
    for (const email of ['owner@example.com', ' OWNER@EXAMPLE.COM ', 'Owner@Example.com']) {
      const found = await find(email, admin);
      assert.equal(found.status, 200, found.text);
      assert.equal(found.body._id, owner.userId);
      assert.equal(found.body.role, 'user');
      assert.equal(found.body.displayName, 'Owner');
      assert.deepEqual(found.body.emails, [{ email: 'Owner@Example.com', primary: true, verified: false }]);
      assert.equal(found.body.accountState.enabled, true);
      assert.match(found.body.__createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.doesNotMatch(found.text, /argon2|password|hash/i);
    }
  });

  it('others may not look users up; an unknown or another project’s email is USER_NOT_FOUND', async () => {
    for (const as of [owner, reader, stranger])
      expectCode(await find('admin@example.com', as), 403, 'ACCESS_DENIED');
    // Refused before the lookup: a non-admin cannot tell known from unknown emails here.
    expectCode(await find('nobody@example.com', stranger), 403, 'ACCESS_DENIED');
    expectCode(await find('nobody@example.com', admin), 404, 'USER_NOT_FOUND');
    expectCode(await find('outsider@example.com', admin), 404, 'USER_NOT_FOUND');
    expectCode(await find('not an email', admin), 404, 'USER_NOT_FOUND');
    expectCode(await client.call('GET', '/api/v1/users', { token: admin.token }), 400, 'VALIDATION_FAILED');
    expectCode(await find('x'.repeat(400), admin), 400, 'VALIDATION_FAILED');
    expectCode(await client.call('GET', '/api/v1/users?email=owner@example.com'), 401, 'AUTH_REQUIRED');
  });

  it('sharing by id needs a user of the project: an unknown or another project’s id is USER_NOT_FOUND', async () => {
    expectCode(await share(`user/${newId()}`, owner), 404, 'USER_NOT_FOUND');
    expectCode(await share(`user/${outsider.userId}`, owner), 404, 'USER_NOT_FOUND');
    expectCode(await share('user/not-an-id!', owner), 400, 'VALIDATION_FAILED');
    // Whoever may not manage the file learns nothing of the user.
    expectCode(await share(`user/${newId()}`, stranger), 403, 'ACCESS_DENIED');
    const unknownFile = await client.call('POST', `/api/v1/file/${newId()}/acl/user/${newId()}`, {
      token: owner.token,
    });
    expectCode(unknownFile, 404, 'FILE_NOT_FOUND');
    const record = await client.call('GET', `/api/v1/file/${fileId}`, { token: owner.token });
    assert.deepEqual(record.body.acl, [{ scope: 'user', identifier: owner.userId }]);
    // The original SDKs' call, an empty POST by id, works as before; roles stay free-form.
    const shared = await share(`user/${reader.userId}`, owner);
    assert.equal(shared.status, 200, shared.text);
    assert.equal((await share('role/any-role.at:all', owner)).status, 200);
    assert.equal((await client.call('GET', `/api/v1/file/${fileId}`, { token: reader.token })).status, 200);
  });

  it('sharing by email names the user by id in the ACL; an unknown email is USER_NOT_FOUND', async () => {
    const fresh = (await client.uploadFile(owner.token, 'shared/by-email.txt', 'x'))._id;
    const byEmail = (email: string, as = owner) =>
      client.call('POST', `/api/v1/file/${fresh}/acl/email/${encodeURIComponent(email)}`, {
        token: as.token,
      });
    const shared = await byEmail('READER.PLUS+TAG@example.com');
    assert.equal(shared.status, 200, shared.text);
    assert.deepEqual(shared.body.acl, [
      { scope: 'user', identifier: owner.userId },
      { scope: 'user', identifier: reader.userId },
    ]);
    // Again: no change; '@' unencoded works too.
    const again = await client.call('POST', `/api/v1/file/${fresh}/acl/email/reader.plus%2Btag@example.com`, {
      token: owner.token,
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.__v, shared.body.__v);
    assert.equal((await client.call('GET', `/api/v1/file/${fresh}`, { token: reader.token })).status, 200);
    expectCode(await byEmail('nobody@example.com'), 404, 'USER_NOT_FOUND');
    expectCode(await byEmail('outsider@example.com'), 404, 'USER_NOT_FOUND');
    expectCode(await byEmail('not-an-email'), 400, 'VALIDATION_FAILED');
    expectCode(await byEmail('nobody@example.com', stranger), 403, 'ACCESS_DENIED');
    // An admin shares by email too.
    const byAdmin = await byEmail('stranger@example.com', admin);
    assert.equal(byAdmin.status, 200, byAdmin.text);
    assert.equal((await client.call('GET', `/api/v1/file/${fresh}`, { token: stranger.token })).status, 200);
  });

  it('unsharing a user who is not in the ACL, or does not exist, stays a no-op (204)', async () => {
    for (const userId of [newId(), outsider.userId, stranger.userId]) {
      const answer = await share(`user/${userId}`, owner, 'DELETE');
      assert.equal(answer.status, 204, answer.text);
    }
  });
});

describe('shares by email are rate-limited per user (each tells whether an address has an account)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_EMAIL_SHARES_PER_USER_PER_HOUR: '3' });
  });
  after(() => server.stop());

  it('answers RATE_LIMITED past the allowance, hits and misses alike; by id, other users and admins go on', async () => {
    const client = server.client;
    const [owner, other, admin] = await Promise.all(
      ['owner', 'other', 'admin', 'reader'].map((name) => client.signup(`${name}@example.com`)),
    );
    await server.services.repositories.users.setRole(client.credentials.projectId, admin!.userId, 'admin');
    const fileId = (await client.uploadFile(owner!.token, 'limited.txt', 'x'))._id;
    const byEmail = (email: string, as: { token: string }) =>
      client.call('POST', `/api/v1/file/${fileId}/acl/email/${encodeURIComponent(email)}`, {
        token: as.token,
      });
    assert.equal((await byEmail('reader@example.com', owner!)).status, 200);
    assert.equal((await byEmail('nobody@example.com', owner!)).status, 404);
    assert.equal((await byEmail('reader@example.com', owner!)).status, 200);
    const limited = await byEmail('reader@example.com', owner!);
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.code, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await byEmail('nobody@example.com', owner!)).body.code, 'RATE_LIMITED');
    const byId = await client.call('POST', `/api/v1/file/${fileId}/acl/user/${other!.userId}`, {
      token: owner!.token,
    });
    assert.equal(byId.status, 200, byId.text);
    for (let i = 0; i < 5; i++) assert.equal((await byEmail('reader@example.com', admin!)).status, 200);
    // Another user's allowance is its own.
    const otherFile = (await client.uploadFile(other!.token, 'theirs.txt', 'y'))._id;
    const theirs = await client.call('POST', `/api/v1/file/${otherFile}/acl/email/reader%40example.com`, {
      token: other!.token,
    });
    assert.equal(theirs.status, 200, theirs.text);
  });
});
