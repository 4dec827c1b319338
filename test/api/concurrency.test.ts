import assert from 'node:assert/strict';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

describe('concurrency on the embedded stack', () => {
  let server: TestServer;
  before(async () => {
    // The default busy timeout: on a busy machine 20 parallel writes may queue for seconds,
    // and queueing is what this suite expects of them, not 503s.
    server = await startTestServer();
  });
  after(() => server.stop());

  it('20 parallel shares of one file lose none and raise __v by exactly 20; a duplicate is a no-op', async () => {
    const owner = await server.client.signup();
    const record = await server.client.uploadFile(owner.token, 'shared.txt', 'content');
    const users = await Promise.all(Array.from({ length: 20 }, () => server.client.signup()));
    const shares = await Promise.all(
      users.map((user) =>
        server.client.call('POST', `/api/v1/file/${record._id}/acl/user/${user.userId}`, {
          token: owner.token,
        }),
      ),
    );
    assert.deepEqual(new Set(shares.map((response) => response.status)), new Set([200]));
    const after = await server.client.call('GET', `/api/v1/file/${record._id}`, { token: owner.token });
    assert.equal(after.body.__v, (record.__v as number) + 20);
    assert.equal(after.body.acl.length, 21);
    assert.deepEqual(after.body.acl[0], { scope: 'user', identifier: owner.userId });
    assert.deepEqual(
      new Set(after.body.acl.slice(1).map((entry: { identifier: string }) => entry.identifier)),
      new Set(users.map((u) => u.userId)),
    );
    const duplicate = await server.client.call(
      'POST',
      `/api/v1/file/${record._id}/acl/user/${users[0]!.userId}`,
      { token: owner.token },
    );
    assert.equal(duplicate.status, 200);
    assert.equal(duplicate.body.__v, after.body.__v);
    assert.equal(duplicate.body.acl.length, 21);
    // Every one of them can now read it.
    const reads = await Promise.all(
      users.map((user) => server.client.call('GET', `/api/v1/file/${record._id}`, { token: user.token })),
    );
    assert.deepEqual(new Set(reads.map((r) => r.status)), new Set([200]));
  });

  const sqliteOnly = currentStackName() === 'embedded' ? false : 'SQLite locking: the embedded stack only';
  it('a database locked by another writer answers 503 UNAVAILABLE, not 500, and loses nothing', {
    skip: sqliteOnly,
  }, async (t) => {
    // A short busy timeout, so the blocked write gives up while the test holds the lock.
    const server = await startTestServer({}, { COFFER_DATABASE_BUSY_TIMEOUT_MS: '300' });
    t.after(() => server.stop());
    const owner = await server.client.signup();
    const record = await server.client.uploadFile(owner.token, 'locked.txt', 'content');
    const other = new DatabaseSync(path.join(server.dataDir, 'coffer.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const blocked = await server.client.call('POST', `/api/v1/file/${record._id}/acl/role/editors`, {
        token: owner.token,
      });
      assert.equal(blocked.status, 503, blocked.text);
      assert.equal(blocked.body.code, 'UNAVAILABLE');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const retried = await server.client.call('POST', `/api/v1/file/${record._id}/acl/role/editors`, {
      token: owner.token,
    });
    assert.equal(retried.status, 200);
    assert.equal(retried.body.__v, (record.__v as number) + 1);
  });
});
