import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeDeletesFinal } from '../support/final-deletes.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** What the original SDKs used beyond the spec: list, delete, unshare (DESIGN §3). */
describe('listing, deleting and unsharing files', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await makeDeletesFinal(server);
  });
  after(() => server.stop());

  it('lists newest first, in pages, with a literal filePath prefix', async () => {
    const { token } = await server.client.signup();
    const ids: string[] = [];
    for (const path of ['a/1.txt', 'a/2.txt', 'b/3.txt', 'a%/4.txt', 'a/5.txt']) {
      ids.push((await server.client.uploadFile(token, path, path))._id);
    }
    const page1 = await server.client.call('GET', '/api/v1/file?pageSize=2', { token });
    assert.equal(page1.status, 200, page1.text);
    assert.deepEqual(
      { total: page1.body.total, limit: page1.body.limit, page: page1.body.page, pages: page1.body.pages },
      { total: 5, limit: 2, page: 1, pages: 3 },
    );
    assert.deepEqual(
      page1.body.docs.map((d: { _id: string }) => d._id),
      [ids[4], ids[3]],
    );
    assert.equal(page1.body.docs[0].url, undefined, 'listing hands out no links');
    const page3 = await server.client.call('GET', '/api/v1/file?pageSize=2&pageNumber=3', { token });
    assert.deepEqual(
      page3.body.docs.map((d: { _id: string }) => d._id),
      [ids[0]],
    );
    const prefixed = await server.client.call('GET', '/api/v1/file?filePath=a%2F', { token });
    assert.deepEqual(
      prefixed.body.docs.map((d: { filePath: string }) => d.filePath),
      ['a/5.txt', 'a/2.txt', 'a/1.txt'],
    );
    const literal = await server.client.call('GET', `/api/v1/file?filePath=${encodeURIComponent('a%')}`, {
      token,
    });
    assert.deepEqual(
      literal.body.docs.map((d: { filePath: string }) => d.filePath),
      ['a%/4.txt'],
    );
    for (const bad of ['pageSize=0', 'pageSize=101', 'pageNumber=0', 'pageSize=1e1']) {
      const response = await server.client.call('GET', `/api/v1/file?${bad}`, { token });
      assert.equal(response.body.code, 'VALIDATION_FAILED', bad);
    }
  });

  it("unshare removes an entry (204), bumps __v, and takes the reader's access away", async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const record = await server.client.uploadFile(owner.token, 'unshare.txt', 'x');
    await server.client.call('POST', `/api/v1/file/${record._id}/acl/user/${reader.userId}`, {
      token: owner.token,
    });
    assert.equal(
      (await server.client.call('GET', `/api/v1/file/${record._id}`, { token: reader.token })).status,
      200,
    );
    const forbidden = await server.client.call(
      'DELETE',
      `/api/v1/file/${record._id}/acl/user/${reader.userId}`,
      { token: reader.token },
    );
    assert.equal(forbidden.body.code, 'ACCESS_DENIED', 'a reader may not change the ACL');
    const removed = await server.client.call(
      'DELETE',
      `/api/v1/file/${record._id}/acl/user/${reader.userId}`,
      { token: owner.token },
    );
    assert.equal(removed.status, 204);
    const after = await server.client.call('GET', `/api/v1/file/${record._id}`, { token: owner.token });
    assert.deepEqual(after.body.acl, [{ scope: 'user', identifier: owner.userId }]);
    assert.equal(after.body.__v, (record.__v as number) + 2);
    assert.equal(
      (await server.client.call('GET', `/api/v1/file/${record._id}`, { token: reader.token })).body.code,
      'ACCESS_DENIED',
    );
    const again = await server.client.call('DELETE', `/api/v1/file/${record._id}/acl/role/nobody`, {
      token: owner.token,
    });
    assert.equal(again.status, 204);
    const creator = await server.client.call(
      'DELETE',
      `/api/v1/file/${record._id}/acl/user/${owner.userId}`,
      { token: owner.token },
    );
    assert.equal(creator.body.code, 'VALIDATION_FAILED');
  });

  it('delete (204) removes the record and its bytes; only the creator or an admin may', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const record = await server.client.uploadFile(owner.token, 'doomed.txt', 'bye');
    await server.client.call('POST', `/api/v1/file/${record._id}/acl/user/${reader.userId}`, {
      token: owner.token,
    });
    const link = (await server.client.call('GET', `/api/v1/file/${record._id}`, { token: owner.token })).body
      .url;
    const blobVersion = (await server.services.repositories.files.findById(record._id))!.blobVersion!;
    assert.ok(await server.services.blobs.head(`${server.credentials.projectId}/${record._id}`, blobVersion));
    assert.equal(
      (await server.client.call('DELETE', `/api/v1/file/${record._id}`, { token: reader.token })).body.code,
      'ACCESS_DENIED',
    );
    assert.equal(
      (await server.client.call('DELETE', `/api/v1/file/${record._id}`, { token: owner.token })).status,
      204,
    );
    assert.equal(
      (await server.client.call('GET', `/api/v1/file/${record._id}`, { token: owner.token })).body.code,
      'FILE_NOT_FOUND',
    );
    assert.equal(
      (await server.client.call('DELETE', `/api/v1/file/${record._id}`, { token: owner.token })).body.code,
      'FILE_NOT_FOUND',
    );
    const download = await fetch(link);
    assert.equal(download.status, 404, 'a link issued before the delete stops working');
    assert.equal(
      await server.services.blobs.head(`${server.credentials.projectId}/${record._id}`, blobVersion),
      undefined,
    );
    // The path is free again.
    await server.client.uploadFile(owner.token, 'doomed.txt', 'again');
  });
});
