import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { BlobCollector } from '../../src/domain/files/blob-collector.ts';
import { newId } from '../../src/domain/ids.ts';
import { mirroredFileColumns } from '../../src/persistence/migrations/trash-mirror-columns.ts';
import { bodyOf } from '../support/byte-streams.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 38, "Blob references": a non-current version, a trashed file (and its versions) and a
 * version upload on its way each keep the bytes they name from deletes and from the collector
 * (coffer gc, serve's periodic pass), past the grace period; once the row is gone, the bytes are
 * collected. The rows are written with SQL as the versions and trash code writes them.
 */
describe(`blob references of versions, trash and version uploads (${currentStackName()} stack)`, () => {
  let server: TestServer;
  let token: string;
  let userId: string;
  before(async () => {
    server = await startTestServer();
    ({ token, userId } = await server.client.signup());
  });
  after(() => server?.stop());

  const db = () => server.services.database.db;
  const projectId = () => server.credentials.projectId;
  const later = () => new Date(Date.now() + (server.services.config.gcGraceSeconds + 60) * 1000);
  const collect = (apply: boolean) =>
    new BlobCollector({
      files: server.services.repositories.files,
      blobs: server.services.blobs,
      sweeper: server.services.blobs,
      clock: { now: later },
      graceSeconds: server.services.config.gcGraceSeconds,
    }).collect({ apply });
  const strayNames = async () =>
    (await collect(false)).items
      .map((item) => item.name)
      .filter((name) => name.includes(projectId()))
      .sort();
  const store = async (fileId: string, text: string) => {
    const key = `${projectId()}/${fileId}`;
    const stored = await server.services.blobs.put(key, bodyOf(text), {
      contentType: 'text/plain',
      maxBytes: 1024,
    });
    return { key, version: stored.version, name: `${key}.${stored.version}` };
  };
  const isReferenced = (fileId: string, version: string) =>
    server.services.repositories.files.isBlobReferenced(fileId, version);
  const blobVersionOf = async (fileId: string) =>
    (await server.services.repositories.files.findById(fileId))!.blobVersion!;
  /** A non-current version of `fileId` whose bytes are `blob`, as a replace writes it. */
  const addVersionRow = (fileId: string, blobFileId: string, blobVersion: string) =>
    db()
      .insertInto('file_versions')
      .values({
        ...{ file_id: fileId, version_id: newId(), project_id: projectId(), creator_id: userId },
        ...{ blob_file_id: blobFileId, blob_version: blobVersion, etag: '"e"', size_bytes: 3 },
        ...{ content_type: 'text/plain', content_last_modified: Date.now(), content_sha256: null },
        ...{ created_at: Date.now(), created_by: userId, noncurrent_at: Date.now(), counted: 1 },
      })
      .execute();
  /** Moves the file's row to the trash as the trash does: the trashed row first, then the delete. */
  const trash = async (fileId: string) => {
    const columns = sql.join(mirroredFileColumns.map((column) => sql.ref(column)));
    await sql`insert into trashed_files (${columns}, trashed_at, trashed_by, held_bytes)
      select ${columns}, ${Date.now()}, ${userId}, 0 from files where id = ${fileId}`.execute(db());
    await db().deleteFrom('files').where('id', '=', fileId).execute();
  };

  /** On a store with direct uploads, a staging object at `<project>/<id>`: its name, else none. */
  const putStaging = async (id: string): Promise<string[]> => {
    const { blobs } = server.services;
    if (!blobs.presignUpload) return [];
    const key = `${projectId()}/${id}`;
    const url = await blobs.presignUpload(key, { expiresInSeconds: 60, contentType: 'text/plain' });
    const put = await fetch(url, {
      method: 'PUT',
      body: 'staged',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 200, await put.text());
    return [key];
  };

  it('versions, trashed files and version uploads keep their bytes; once their rows go, the bytes are collected', async () => {
    // A file with a non-current version under its own key (its first content, since replaced).
    const replaced = await server.client.uploadFile(token, 'replaced.txt', 'current');
    const old = await store(replaced._id, 'old');
    await addVersionRow(replaced._id, replaced._id, old.version);
    // A trashed file, a trashed copy of another file, and a version of the trashed file.
    const trashed = await server.client.uploadFile(token, 'trashed.txt', 'trashed bytes');
    const trashedVersion = await store(trashed._id, 'trashed, old');
    await addVersionRow(trashed._id, trashed._id, trashedVersion.version);
    const source = await server.client.uploadFile(token, 'source.txt', 'source bytes');
    const copied = await server.client.call('POST', `/api/v1/file/${source._id}/copy`, {
      token,
      body: { filePath: 'copy.txt' },
    });
    assert.equal(copied.status, 200, copied.text);
    await trash(trashed._id);
    await trash(copied.body._id);
    // The source goes: only the trashed copy names its bytes now.
    const sourceVersion = await blobVersionOf(source._id);
    await db().deleteFrom('files').where('id', '=', source._id).execute();
    // A version upload on its way, with a PUT committed under its own key.
    const uploadId = newId();
    const pending = await store(uploadId, 'new version');
    await db()
      .insertInto('version_uploads')
      .values({
        ...{ id: uploadId, file_id: replaced._id, project_id: projectId(), creator_id: userId },
        ...{ requested_by: userId, expires_at: Math.floor(Date.now() / 1000) + 3600, created_at: Date.now() },
        ...{ upload_blob_version: pending.version, upload_etag: '"p"', upload_size_bytes: 11 },
        ...{ upload_content_type: 'text/plain', upload_last_modified: Date.now() },
      })
      .execute();
    // A direct upload's staging object (S3): kept while its version upload is on its way.
    const staging = await putStaging(uploadId);
    const trashedCurrent = (
      await db()
        .selectFrom('trashed_files')
        .select('blob_version')
        .where('id', '=', trashed._id)
        .executeTakeFirstOrThrow()
    ).blob_version!;

    const held = [
      [replaced._id, old.version],
      [trashed._id, trashedCurrent],
      [trashed._id, trashedVersion.version],
      [source._id, sourceVersion],
      [uploadId, pending.version],
    ] as const;
    for (const [fileId, version] of held)
      assert.ok(await isReferenced(fileId, version), `${fileId}.${version}`);
    // Past the grace, nothing of theirs is stray: a pass removes none of it.
    assert.deepEqual(await strayNames(), []);
    const pass = await collect(true);
    assert.equal(pass.failed, 0);
    for (const [fileId, version] of held)
      assert.ok(
        await server.services.blobs.head(`${projectId()}/${fileId}`, version),
        `${fileId}.${version} kept`,
      );

    // Their rows go (a version deleted, the trash purged, the upload abandoned): collected.
    await db().deleteFrom('file_versions').where('file_id', '=', replaced._id).execute();
    await db().deleteFrom('trashed_files').where('id', 'in', [trashed._id, copied.body._id]).execute();
    await db().deleteFrom('version_uploads').where('id', '=', uploadId).execute();
    const gone = [
      ...held.map(([fileId, version]) => `${projectId()}/${fileId}.${version}`),
      ...staging,
    ].sort();
    for (const [fileId, version] of held) assert.equal(await isReferenced(fileId, version), false);
    assert.deepEqual(await strayNames(), gone);
    assert.equal((await collect(true)).failed, 0);
    assert.deepEqual(await strayNames(), []);
    // The live file's current bytes were never in question.
    const record = await server.client.call('GET', `/api/v1/file/${replaced._id}`, { token });
    assert.equal(await (await fetch(record.body.url)).text(), 'current');
  });
});
