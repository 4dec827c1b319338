import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toStorageKey } from '../../src/domain/files/storage-key.ts';
import { makeDeletesFinal } from '../support/final-deletes.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

/** Issue 10, item 9: copy, move and bulk delete, each under the access rules. */
describe('copy, move and bulk delete', () => {
  const clock = new ManualClock();
  let server: TestServer;
  before(async () => {
    // gc grace 1 h + 1 s past the request timeout: the collector test moves the clock past it.
    server = await startTestServer(
      {},
      { COFFER_REQUEST_TIMEOUT_SECONDS: '60', COFFER_GC_GRACE_SECONDS: '61' },
      { clock },
    );
    await makeDeletesFinal(server);
  });
  after(() => server.stop());

  const call = (method: string, path: string, token: string, body?: unknown) =>
    server.client.call(method, path, { token, body });
  const download = async (token: string, fileId: string) => {
    const got = await call('GET', `/api/v1/file/${fileId}`, token);
    if (got.status !== 200) return got.body.code as string;
    return (await fetch(got.body.url)).text();
  };
  const storedVersionExists = async (fileId: string) => {
    const record = await server.services.repositories.files.findById(fileId);
    assert.ok(record?.blobVersion);
    return async () =>
      (await server.services.blobs.head(toStorageKey(record), record.blobVersion!)) !== undefined;
  };

  it("copy: a new file of the caller's with the same bytes, its own id and ACL; the source unchanged", async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const source = await server.client.uploadFile(owner.token, 'copy/source.txt', 'shared bytes');
    await call('PATCH', `/api/v1/file/${source._id}`, owner.token, { customData: { album: 'x' } });
    await call('POST', `/api/v1/file/${source._id}/acl/user/${reader.userId}`, owner.token);
    const copied = await call('POST', `/api/v1/file/${source._id}/copy`, reader.token, {
      filePath: 'mine/copy.txt',
    });
    assert.equal(copied.status, 200, copied.text);
    const copy = copied.body;
    assert.notEqual(copy._id, source._id);
    assert.equal(copy.creator, reader.userId);
    assert.equal(copy.filePath, 'mine/copy.txt');
    assert.equal(copy.key, `${server.credentials.projectId}/${reader.userId}/mine/copy.txt`);
    assert.deepEqual(copy.acl, [{ scope: 'user', identifier: reader.userId }], 'the ACL is not copied');
    assert.equal(copy.permissionScope, 'user');
    assert.equal(copy.verified, true);
    assert.equal(copy.etag, source.etag);
    assert.deepEqual(copy.meta, source.meta);
    assert.deepEqual(copy.customData, { album: 'x' });
    assert.equal(copy.__v, 0);
    assert.equal(await download(reader.token, copy._id), 'shared bytes');
    assert.equal(await download(owner.token, copy._id), 'ACCESS_DENIED', "the copy is the reader's alone");
    // No bytes were copied: the copy serves the source's version.
    const [sourceRecord, copyRecord] = await Promise.all(
      [source._id, copy._id].map((id) => server.services.repositories.files.findById(id)),
    );
    assert.equal(copyRecord?.blobVersion, sourceRecord?.blobVersion);
    assert.equal(toStorageKey(copyRecord!), toStorageKey(sourceRecord!));
    const listed = await call('GET', '/api/v1/file?filePath=mine/', reader.token);
    assert.deepEqual(
      listed.body.docs.map((doc: { _id: string }) => doc._id),
      [copy._id],
    );
  });

  it('copy: read access is needed; unverified sources, taken paths and bad paths are refused', async () => {
    const owner = await server.client.signup();
    const stranger = await server.client.signup();
    const source = await server.client.uploadFile(owner.token, 'copy/guarded.txt', 'x');
    const copy = (token: string, id: string, body: unknown) =>
      call('POST', `/api/v1/file/${id}/copy`, token, body);
    assert.equal(
      (await copy(stranger.token, source._id, { filePath: 'stolen.txt' })).body.code,
      'ACCESS_DENIED',
    );
    assert.equal(
      (await copy(owner.token, 'AAAAAAAAAAAAAAAAAAAAAA', { filePath: 'a.txt' })).body.code,
      'FILE_NOT_FOUND',
    );
    const pending = await call('POST', '/api/v1/file', owner.token, { filePath: 'copy/pending.txt' });
    assert.equal(
      (await copy(owner.token, pending.body.fileId, { filePath: 'b.txt' })).body.code,
      'FILE_NOT_VERIFIED',
    );
    assert.equal(
      (await copy(owner.token, source._id, { filePath: 'copy/guarded.txt' })).body.code,
      'FILE_EXISTS',
    );
    assert.equal((await copy(owner.token, source._id, { filePath: '../x' })).body.code, 'INVALID_FILE_PATH');
    assert.equal((await copy(owner.token, source._id, {})).body.code, 'VALIDATION_FAILED');
    // Scope `*` lets a stranger who holds the id read, so copy too.
    const open = await server.client.uploadFile(owner.token, 'copy/open.txt', 'open', {
      permissionScope: '*',
    });
    const taken = await copy(stranger.token, open._id, { filePath: 'open-copy.txt', permissionScope: '*' });
    assert.equal(taken.status, 200, taken.text);
    assert.equal(taken.body.permissionScope, '*');
  });

  it('deleting the source keeps the bytes its copy serves; deleting the last one removes them; gc agrees', async () => {
    const owner = await server.client.signup();
    const source = await server.client.uploadFile(owner.token, 'gc/source.txt', 'bytes to keep');
    const exists = await storedVersionExists(source._id);
    const copy = (
      await call('POST', `/api/v1/file/${source._id}/copy`, owner.token, { filePath: 'gc/copy.txt' })
    ).body;
    const copyOfCopy = (
      await call('POST', `/api/v1/file/${copy._id}/copy`, owner.token, { filePath: 'gc/copy2.txt' })
    ).body;
    assert.equal((await call('DELETE', `/api/v1/file/${source._id}`, owner.token)).status, 204);
    assert.equal(await exists(), true, 'the copies still serve the bytes');
    // Past the gc grace, the collector must still see the copies' reference.
    clock.advance(3600);
    const report = await server.services.collector.collect({ apply: true });
    assert.equal(report.failed, 0);
    assert.equal(await exists(), true, 'gc keeps what a copy serves');
    assert.equal(await download(owner.token, copy._id), 'bytes to keep');
    assert.equal((await call('DELETE', `/api/v1/file/${copy._id}`, owner.token)).status, 204);
    assert.equal(await exists(), true, 'the copy of the copy still serves them');
    assert.equal(await download(owner.token, copyOfCopy._id), 'bytes to keep');
    assert.equal((await call('DELETE', `/api/v1/file/${copyOfCopy._id}`, owner.token)).status, 204);
    assert.equal(await exists(), false, 'the last record took them along');
  });

  it('a copy racing the delete of its source either serves the bytes or answers FILE_NOT_FOUND', async () => {
    const owner = await server.client.signup();
    for (let round = 0; round < 12; round++) {
      const source = await server.client.uploadFile(owner.token, `race/${round}.txt`, `race ${round}`);
      const [copy, deleted] = await Promise.all([
        call('POST', `/api/v1/file/${source._id}/copy`, owner.token, { filePath: `race/copy-${round}.txt` }),
        call('DELETE', `/api/v1/file/${source._id}`, owner.token),
      ]);
      assert.equal(deleted.status, 204, deleted.text);
      if (copy.status === 200) {
        assert.equal(
          await download(owner.token, copy.body._id),
          `race ${round}`,
          'a copy never loses its bytes',
        );
      } else assert.equal(copy.body.code, 'FILE_NOT_FOUND', copy.text);
    }
  });

  it('gc removes shared bytes once no record serves them', async () => {
    const owner = await server.client.signup();
    const source = await server.client.uploadFile(owner.token, 'gc2/source.txt', 'orphaned later');
    const exists = await storedVersionExists(source._id);
    const copy = (
      await call('POST', `/api/v1/file/${source._id}/copy`, owner.token, { filePath: 'gc2/copy.txt' })
    ).body;
    await call('DELETE', `/api/v1/file/${source._id}`, owner.token);
    // Delete the copy's record behind the API's back, as a crash between record and bytes would leave it.
    await server.services.repositories.files.delete(copy._id);
    clock.advance(3600);
    await server.services.collector.collect({ apply: true });
    assert.equal(await exists(), false);
  });

  it('move: same id, ACL and bytes at a new path, __v bumped; creator or admin; collisions refused', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'move/a.txt', 'moving bytes');
    await call('POST', `/api/v1/file/${file._id}/acl/user/${reader.userId}`, owner.token);
    const before = (await call('GET', `/api/v1/file/${file._id}`, owner.token)).body;
    const link = before.url;
    const move = (token: string, id: string, filePath: unknown) =>
      call('POST', `/api/v1/file/${id}/move`, token, { filePath });
    assert.equal((await move(reader.token, file._id, 'move/b.txt')).body.code, 'ACCESS_DENIED');
    const moved = await move(owner.token, file._id, 'move/b.txt');
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body._id, file._id);
    assert.equal(moved.body.filePath, 'move/b.txt');
    assert.equal(moved.body.key, `${server.credentials.projectId}/${owner.userId}/move/b.txt`);
    assert.deepEqual(moved.body.acl, before.acl);
    assert.equal(moved.body.__v, before.__v + 1);
    assert.equal(moved.body.etag, before.etag);
    assert.equal(await download(reader.token, file._id), 'moving bytes');
    assert.equal(await (await fetch(link)).text(), 'moving bytes', 'links handed out keep working');
    const same = await move(owner.token, file._id, 'move/b.txt');
    assert.equal(same.body.__v, moved.body.__v, 'to its own path: nothing changes');
    await server.client.uploadFile(owner.token, 'move/taken.txt', 'other');
    assert.equal((await move(owner.token, file._id, 'move/taken.txt')).body.code, 'FILE_EXISTS');
    assert.equal((await move(owner.token, file._id, '/abs')).body.code, 'INVALID_FILE_PATH');
    assert.equal((await move(owner.token, file._id, 7)).body.code, 'VALIDATION_FAILED');
    assert.equal((await move(owner.token, 'AAAAAAAAAAAAAAAAAAAAAA', 'x.txt')).body.code, 'FILE_NOT_FOUND');
    // The old path is free again.
    await server.client.uploadFile(owner.token, 'move/a.txt', 'new file at the old path');
  });

  it('bulk delete: one outcome per id, in order; each checked like a single delete', async () => {
    const owner = await server.client.signup();
    const other = await server.client.signup();
    const mine = await server.client.uploadFile(owner.token, 'bulk/1.txt', '1');
    const alsoMine = await server.client.uploadFile(owner.token, 'bulk/2.txt', '2');
    const theirs = await server.client.uploadFile(other.token, 'bulk/3.txt', '3');
    const answer = await call('POST', '/api/v1/file/delete', owner.token, {
      fileIds: [mine._id, theirs._id, 'AAAAAAAAAAAAAAAAAAAAAA', alsoMine._id, 'not-an-id'],
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.results, [
      { fileId: mine._id, statusCode: 204 },
      { fileId: theirs._id, statusCode: 403, code: 'ACCESS_DENIED' },
      { fileId: 'AAAAAAAAAAAAAAAAAAAAAA', statusCode: 404, code: 'FILE_NOT_FOUND' },
      { fileId: alsoMine._id, statusCode: 204 },
      { fileId: 'not-an-id', statusCode: 404, code: 'FILE_NOT_FOUND' },
    ]);
    assert.equal(await download(owner.token, mine._id), 'FILE_NOT_FOUND');
    assert.equal(await download(other.token, theirs._id), '3', "another's file stays");
    const many = Array.from({ length: 101 }, (_, i) => `id${i}`);
    for (const fileIds of [[], many, [mine._id, mine._id], 'x', [7]]) {
      const refused = await call('POST', '/api/v1/file/delete', owner.token, { fileIds });
      assert.equal(refused.body.code, 'VALIDATION_FAILED', JSON.stringify(fileIds).slice(0, 40));
    }
    assert.equal((await call('POST', '/api/v1/file/delete', owner.token, {})).body.code, 'VALIDATION_FAILED');
  });
});
