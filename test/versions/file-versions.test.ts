import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/** Issue 38, items 1 and 2: new content under the same id, and a file's versions. */
describe('file versions', () => {
  let server: TestServer;
  let projects = 0;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  const projectWith = async (settings: Partial<ProjectSettings> = {}) => {
    const client = await server.createProject(`versions-${projects++}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      ...settings,
    });
    return { client, projectId, owner: await client.signup() };
  };
  const expectCode = (answer: ApiResponse, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.body.code, code);
  };
  /** Uploads new content through the three steps; answers the verify's answer. */
  const replace = async (client: ApiClient, token: string, fileId: string, content: string) => {
    const requested = await client.call('POST', `/api/v1/file/${fileId}/versions`, { token, body: {} });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: content,
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 200, await put.text());
    const verified = await client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.versionId, requested.body.versionId);
    return verified.body;
  };
  const linkOf = async (client: ApiClient, token: string, fileId: string, versionId?: string) => {
    const query = versionId === undefined ? '' : `?versionId=${versionId}`;
    const answer = await client.call('GET', `/api/v1/file/${fileId}${query}`, { token });
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };
  const bytesAt = async (url: string) => {
    const response = await fetch(url);
    return { status: response.status, text: await response.text() };
  };
  const listVersions = async (client: ApiClient, token: string, fileId: string) => {
    const answer = await client.call('GET', `/api/v1/file/${fileId}/versions`, { token });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as Array<{ versionId: string; current: boolean; size: number; etag: string }>;
  };

  it('replaces the content under the same id, path, ACL, folder shares and customData; old links keep the old bytes', async () => {
    const { client, owner } = await projectWith();
    const reader: Account = await client.signup();
    const first = await client.uploadFile(owner.token, 'docs/report.txt', 'version one');
    const fileId = first._id;
    assert.equal(first.versionId, fileId, "the first version's id is the file's");
    await client.call('PATCH', `/api/v1/file/${fileId}`, {
      token: owner.token,
      body: { customData: { tag: 'q3' } },
    });
    await client.call('POST', `/api/v1/file/${fileId}/acl/user/${reader.userId}`, { token: owner.token });
    const shared = await client.call('POST', '/api/v1/folders/share', {
      token: owner.token,
      body: { path: 'docs/', role: 'auditors' },
    });
    assert.equal(shared.status, 200, shared.text);
    const oldLink = (await linkOf(client, reader.token, fileId)).url;
    const before = await linkOf(client, owner.token, fileId);

    const replaced = await replace(client, owner.token, fileId, 'version two, longer');
    assert.equal(replaced._id, fileId);
    assert.equal(replaced.filePath, 'docs/report.txt');
    assert.deepEqual(replaced.acl, before.acl);
    assert.deepEqual(replaced.folderAcl, before.folderAcl);
    assert.deepEqual(replaced.customData, { tag: 'q3' });
    assert.ok(replaced.__v > before.__v, '__v grows');
    assert.notEqual(replaced.etag, before.etag);
    assert.equal(replaced.meta.ContentLength, String('version two, longer'.length));

    const now = await linkOf(client, reader.token, fileId);
    assert.deepEqual(await bytesAt(now.url), { status: 200, text: 'version two, longer' });
    assert.deepEqual(
      await bytesAt(oldLink),
      { status: 200, text: 'version one' },
      'an old link serves its version',
    );

    const versions = await listVersions(client, reader.token, fileId);
    assert.deepEqual(
      versions.map((v) => [v.versionId, v.current, v.size]),
      [
        [replaced.versionId, true, 19],
        [fileId, false, 11],
      ],
    );
    const old = await linkOf(client, reader.token, fileId, fileId);
    assert.equal(old.etag, before.etag);
    assert.equal(old.versionId, fileId);
    assert.deepEqual(await bytesAt(old.url), { status: 200, text: 'version one' });

    // Revoking the file's links stops the links of every version.
    await client.call('POST', `/api/v1/file/${fileId}/links/revoke`, { token: owner.token });
    assert.equal((await bytesAt(oldLink)).status, 403);
  });

  it('restores an earlier version as a new current one (after three), and deletes an earlier one', async () => {
    const { client, owner } = await projectWith();
    const fileId = (await client.uploadFile(owner.token, 'notes.txt', 'one'))._id;
    const two = await replace(client, owner.token, fileId, 'two');
    await replace(client, owner.token, fileId, 'three');
    const restored = await client.call('POST', `/api/v1/file/${fileId}/versions/${fileId}/restore`, {
      token: owner.token,
    });
    assert.equal(restored.status, 200, restored.text);
    assert.notEqual(restored.body.versionId, fileId, 'a restore is a new version');
    assert.deepEqual(await bytesAt((await linkOf(client, owner.token, fileId)).url), {
      status: 200,
      text: 'one',
    });
    const versions = await listVersions(client, owner.token, fileId);
    assert.equal(versions.length, 4);
    assert.deepEqual(
      versions.filter((v) => !v.current).map((v) => v.versionId),
      [versions[1]!.versionId, two.versionId, fileId],
    );

    const deleted = await client.call('DELETE', `/api/v1/file/${fileId}/versions/${two.versionId}`, {
      token: owner.token,
    });
    assert.equal(deleted.status, 204, deleted.text);
    expectCode(
      await client.call('GET', `/api/v1/file/${fileId}?versionId=${two.versionId}`, { token: owner.token }),
      404,
      'VERSION_NOT_FOUND',
    );
    expectCode(
      await client.call('DELETE', `/api/v1/file/${fileId}/versions/${restored.body.versionId}`, {
        token: owner.token,
      }),
      400,
      'VALIDATION_FAILED',
    );
    // The first version's bytes stay: the current one was restored from them.
    assert.deepEqual(await bytesAt((await linkOf(client, owner.token, fileId, fileId)).url), {
      status: 200,
      text: 'one',
    });
  });

  it('lets only the creator or an admin add versions; readers list and read them', async () => {
    const { client, owner } = await projectWith();
    const reader = await client.signup();
    const fileId = (await client.uploadFile(owner.token, 'shared.txt', 'mine'))._id;
    await client.call('POST', `/api/v1/file/${fileId}/acl/user/${reader.userId}`, { token: owner.token });
    expectCode(
      await client.call('POST', `/api/v1/file/${fileId}/versions`, { token: reader.token, body: {} }),
      403,
      'ACCESS_DENIED',
    );
    assert.equal((await listVersions(client, reader.token, fileId)).length, 1);
    const stranger = await client.signup();
    expectCode(
      await client.call('GET', `/api/v1/file/${fileId}/versions`, { token: stranger.token }),
      403,
      'ACCESS_DENIED',
    );
  });

  it('prunes beyond versionsKept at once, and counts every kept version against the quota', async () => {
    const { client, projectId, owner } = await projectWith({ versionsKept: 2 });
    const fileId = (await client.uploadFile(owner.token, 'log.txt', 'a'.repeat(10)))._id;
    for (const size of [20, 30, 40]) await replace(client, owner.token, fileId, 'b'.repeat(size));
    const versions = await listVersions(client, owner.token, fileId);
    assert.deepEqual(
      versions.map((v) => v.size),
      [40, 30, 20],
      'the oldest (10 bytes) was pruned',
    );
    const usage = await server.services.repositories.storageUsage.find({ projectId, userId: owner.userId });
    assert.deepEqual(usage.user, { files: 1, bytes: 90 });
  });

  it('refuses a version the quota has no room for, keeping the file as it was', async () => {
    const { client, projectId, owner } = await projectWith({ userQuotaBytes: 25 });
    const fileId = (await client.uploadFile(owner.token, 'big.txt', 'x'.repeat(10)))._id;
    const requested = await client.call('POST', `/api/v1/file/${fileId}/versions`, {
      token: owner.token,
      body: { contentLength: 20 },
    });
    expectCode(requested, 413, 'QUOTA_EXCEEDED');
    await replace(client, owner.token, fileId, 'y'.repeat(12));
    const usage = await server.services.repositories.storageUsage.find({ projectId, userId: owner.userId });
    assert.deepEqual(usage.user, { files: 1, bytes: 22 });
  });

  it('answers 404 VERSION_NOT_FOUND for an unknown version, and a repeated verify the same record', async () => {
    const { client, owner } = await projectWith();
    const fileId = (await client.uploadFile(owner.token, 'v.txt', 'v1'))._id;
    expectCode(
      await client.call('GET', `/api/v1/file/${fileId}?versionId=nope`, { token: owner.token }),
      404,
      'VERSION_NOT_FOUND',
    );
    expectCode(
      await client.call('POST', `/api/v1/file/${fileId}/versions/nope/restore`, { token: owner.token }),
      404,
      'VERSION_NOT_FOUND',
    );
    const requested = await client.call('POST', `/api/v1/file/${fileId}/versions`, {
      token: owner.token,
      body: {},
    });
    const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'v2' });
    const verify = () =>
      client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
        token: owner.token,
        body: { etag: put.headers.get('etag') },
      });
    const first = await verify();
    assert.equal(first.status, 200, first.text);
    const again = await verify();
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.__v, first.body.__v);
  });

  it('prunes earlier versions past versionRetentionDays (not a held file’s), and abandoned version uploads', async () => {
    const { client, projectId, owner } = await projectWith({ versionRetentionDays: 7 });
    const { db } = server.services.database;
    const fileId = (await client.uploadFile(owner.token, 'aged.txt', 'old'))._id;
    const held = (await client.uploadFile(owner.token, 'held.txt', 'kept'))._id;
    for (const id of [fileId, held]) await replace(client, owner.token, id, 'new');
    const eightDaysAgo = Date.now() - 8 * 86_400_000;
    await db
      .updateTable('file_versions')
      .set({ noncurrent_at: eightDaysAgo })
      .where('project_id', '=', projectId)
      .execute();
    await db
      .updateTable('files')
      .set({ hold_reason: 'audit', held_at: Date.now(), held_by: owner.userId })
      .where('id', '=', held)
      .execute();
    const abandoned = await client.call('POST', `/api/v1/file/${fileId}/versions`, {
      token: owner.token,
      body: {},
    });
    assert.equal(
      (await fetch(abandoned.body.putFileUrl, { method: 'PUT', body: 'never verified' })).status,
      200,
    );
    const usage = () => server.services.repositories.storageUsage.find({ projectId, userId: owner.userId });
    assert.equal((await usage()).user.bytes, 3 + 3 + 3 + 4 + 'never verified'.length);
    await db
      .updateTable('version_uploads')
      .set({ expires_at: Math.floor(Date.now() / 1000) - server.services.config.unverifiedGraceSeconds - 10 })
      .where('id', '=', abandoned.body.versionId)
      .execute();

    const report = await server.services.versionSweeper.sweep();
    assert.ok(report.versionsPruned >= 1 && report.uploadsRemoved >= 1, JSON.stringify(report));
    assert.equal((await listVersions(client, owner.token, fileId)).length, 1, 'the aged version went');
    assert.equal((await listVersions(client, owner.token, held)).length, 2, "a held file's stays");
    assert.equal((await usage()).user.bytes, 3 + 3 + 4, 'their bytes no longer count');
    const verify = await client.call('POST', new URL(abandoned.body.postVerifyUploadUrl).pathname, {
      token: owner.token,
      body: { etag: '"whatever"' },
    });
    expectCode(verify, 404, 'UPLOAD_NOT_FOUND');
  });
});
