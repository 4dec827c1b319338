import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/** Issue 36: the folder shares a page of records carries, each record its own owner's. */
describe('folder shares on pages of many owners', () => {
  let server: TestServer;
  let serviceKey: string;
  before(async () => {
    server = await startTestServer();
    serviceKey = await server.createServiceKey();
  });
  after(() => server?.stop());

  const post = (path: string, token: string, body?: unknown) =>
    server.client.call('POST', path, { token, body });
  const share = (account: Account, body: Record<string, unknown>) =>
    post('/api/v1/folders/share', account.token, body);
  const upload = async (account: Account, filePath: string) =>
    (await server.client.uploadFile(account.token, filePath, `bytes of ${filePath}`))._id;

  it("a page of many owners' files gives each record its own owner's folder shares", async () => {
    // Six owners: past the four asked one statement each, one statement asks for all of them.
    const owners = await Promise.all(Array.from({ length: 6 }, () => server.client.signup()));
    const ids = new Map<string, { owner: number; deep: boolean }>();
    for (const [index, owner] of owners.entries()) {
      ids.set(await upload(owner, `many-owners/doc-${index}.txt`), { owner: index, deep: false });
      ids.set(await upload(owner, `many-owners/sub/deep-${index}.txt`), { owner: index, deep: true });
      assert.equal((await share(owner, { path: 'many-owners/', role: `team-${index}` })).status, 200);
      if (index % 2 === 0)
        assert.equal((await share(owner, { path: 'many-owners/sub/', role: `sub-${index}` })).status, 200);
    }
    const expected = (owner: number, deep: boolean) => [
      { scope: 'role', identifier: `team-${owner}`, path: 'many-owners/' },
      ...(deep && owner % 2 === 0
        ? [{ scope: 'role', identifier: `sub-${owner}`, path: 'many-owners/sub/' }]
        : []),
    ];
    const listed = await server.client.call('GET', '/api/v1/file?pageSize=100&filePath=many-owners/', {
      serviceKey,
    });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.docs.length, 12);
    for (const doc of listed.body.docs) {
      const { owner, deep } = ids.get(doc._id)!;
      assert.deepEqual(doc.folderAcl, expected(owner, deep), doc.filePath);
    }
    // Three owners' files on one page (each owner asked on its own), shared with one reader.
    const reader = await server.client.signup();
    for (const [id, { owner, deep }] of ids)
      if (deep && owner < 3)
        assert.equal(
          (await post(`/api/v1/file/${id}/acl/user/${reader.userId}`, owners[owner]!.token)).status,
          200,
        );
    const page = await server.client.call('GET', '/api/v1/shared', { token: reader.token });
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.items.length, 3);
    for (const item of page.body.items) {
      const { owner, deep } = ids.get(item.file._id)!;
      assert.deepEqual(item.file.folderAcl, expected(owner, deep), item.file.filePath);
    }
  });
});
