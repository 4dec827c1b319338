import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, CofferError } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// replace, versions, restoreVersion, deleteVersion and get({versionId}) against a real server (issue 38).
describe('@coffer/client: versions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('replaces a file under its id, lists its versions, reads and restores an earlier one', async () => {
    const ada = new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
    });
    await ada.signup({ email: 'ada@versions.example', password: 'correct horse' });
    const first = await ada.upload('draft.txt', 'first draft', { contentType: 'text/plain' });
    const second = await ada.replace(first._id, 'second draft', { contentType: 'text/plain' });
    assert.equal(second._id, first._id);
    assert.equal(await (await ada.download(first._id)).text(), 'second draft');

    const versions = await ada.versions(first._id);
    assert.deepEqual(
      versions.map((version) => [version.versionId === first.versionId, version.current, version.size]),
      [
        [false, true, 12],
        [true, false, 11],
      ],
    );
    const old = await ada.get(first._id, { versionId: first.versionId! });
    assert.equal(old.etag, first.etag);
    assert.equal(await (await fetch(old.url)).text(), 'first draft');

    const restored = await ada.restoreVersion(first._id, first.versionId!);
    assert.equal(await (await ada.download(first._id)).text(), 'first draft');
    await ada.deleteVersion(first._id, second.versionId!);
    const gone = await ada.get(first._id, { versionId: second.versionId! }).catch((error: unknown) => error);
    assert.ok(gone instanceof CofferError && gone.code === 'VERSION_NOT_FOUND', String(gone));
    assert.deepEqual(
      (await ada.versions(first._id)).map((version) => version.versionId),
      [restored.versionId, first.versionId],
    );
  });
});
