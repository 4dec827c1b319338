import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openBlobStore } from '../../src/blob-stores/open-blob-store.ts';
import { exportData, importData, verifyExport } from '../../src/cli/export-import.ts';
import { loadConfig } from '../../src/config/config.ts';
import { newId } from '../../src/domain/ids.ts';
import {
  mirroredAclColumns,
  mirroredFileColumns,
} from '../../src/persistence/migrations/trash-mirror-columns.ts';
import { openStores } from '../../src/wiring/open-stores.ts';
import { bodyOf, readAll } from '../support/byte-streams.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

const silent = { phase() {}, advance() {}, finish() {} };

/**
 * Issue 38, "Export and import carry versions, trash and holds": file_versions, trashed_files and
 * trashed_file_acl move with their bytes, `--verify` checks every version's, and version
 * uploads on their way stay behind (as sessions do). The rows are written with SQL, as the
 * versions and trash code writes them; the import's target is a new embedded data dir.
 */
describe(`export and import of versions, trash and holds (${currentStackName()} stack)`, () => {
  let server: TestServer;
  let work: string;
  before(async () => {
    server = await startTestServer();
    work = await mkdtemp(path.join(tmpdir(), 'coffer-export-versions-'));
  });
  after(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('versions, trashed files with their ACL, and holds move with their bytes; --verify checks every version', async () => {
    const { token, userId } = await server.client.signup();
    const reader = await server.client.signup();
    const projectId = server.credentials.projectId;
    const db = server.services.database.db;
    const serviceKey = await server.createServiceKey();

    // A held file with a non-current version (its first content, stored under its own key).
    const live = await server.client.uploadFile(token, 'live.txt', 'current bytes');
    const held = await server.client.call('POST', `/api/v1/file/${live._id}/hold`, {
      serviceKey,
      body: { reason: 'litigation 42' },
    });
    assert.equal(held.status, 200, held.text);
    const old = await server.services.blobs.put(`${projectId}/${live._id}`, bodyOf('old bytes'), {
      contentType: 'text/plain',
      maxBytes: 1024,
    });
    const versionId = newId();
    await db
      .insertInto('file_versions')
      .values({
        ...{ file_id: live._id, version_id: versionId, project_id: projectId, creator_id: userId },
        ...{ blob_file_id: live._id, blob_version: old.version, etag: old.etag, size_bytes: 9 },
        ...{
          content_type: 'text/plain',
          content_last_modified: Date.now(),
          content_sha256: createHash('sha256').update('old bytes').digest('base64'),
        },
        ...{ created_at: Date.now(), created_by: userId, noncurrent_at: Date.now(), counted: 1 },
      })
      .execute();
    // A trashed file, shared with the reader: its row and ACL moved as the trash moves them.
    const trashed = await server.client.uploadFile(token, 'trashed.txt', 'trashed bytes');
    await server.client.call('POST', `/api/v1/file/${trashed._id}/acl/user/${reader.userId}`, { token });
    const fileColumns = sql.join(mirroredFileColumns.map((column) => sql.ref(column)));
    const aclColumns = sql.join(mirroredAclColumns.map((column) => sql.ref(column)));
    await sql`insert into trashed_files (${fileColumns}, trashed_at, trashed_by, held_bytes)
      select ${fileColumns}, ${Date.now()}, ${userId}, 13 from files where id = ${trashed._id}`.execute(db);
    await sql`insert into trashed_file_acl (${aclColumns})
      select ${aclColumns} from file_acl where file_id = ${trashed._id}`.execute(db);
    await db.deleteFrom('files').where('id', '=', trashed._id).execute();
    // A version upload on its way: not exported.
    await db
      .insertInto('version_uploads')
      .values({
        ...{ id: newId(), file_id: live._id, project_id: projectId, creator_id: userId },
        ...{ requested_by: userId, expires_at: Math.floor(Date.now() / 1000) + 3600, created_at: Date.now() },
      })
      .execute();

    const exportDir = path.join(work, 'export');
    const exported = (await exportData(server.services.config, exportDir, silent)) as Record<string, number>;
    assert.equal(exported.file_versions, 1);
    assert.equal(exported.trashed_files, 1);
    assert.equal(exported.trashed_file_acl, 2);
    assert.equal(exported.version_uploads, undefined);
    const names = await readdir(path.join(exportDir, 'blobs', projectId));
    assert.ok(names.includes(`${live._id}.${versionId}`), names.join());
    assert.ok(names.includes(trashed._id), names.join());
    assert.equal((await verifyExport(exportDir, silent)).blobs, exported.blobs);

    const target = loadConfig({ 'data-dir': path.join(work, 'target') }, {});
    const imported = await importData(target, exportDir, silent);
    assert.equal(imported.file_versions, 1);
    assert.equal(imported.trashed_files, 1);
    const { database } = await openStores(target);
    const blobs = await openBlobStore(target.storageUrl);
    try {
      const bytesOf = async (fileId: string, version: string) => {
        const blob = await blobs.get(`${projectId}/${fileId}`, version);
        assert.ok(blob, `${fileId}.${version} in the target store`);
        return (await readAll(blob.body)).toString();
      };
      const version = await database.db.selectFrom('file_versions').selectAll().executeTakeFirstOrThrow();
      assert.equal(version.blob_file_id, live._id);
      assert.equal(await bytesOf(live._id, version.blob_version), 'old bytes');
      const file = await database.db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', live._id)
        .executeTakeFirstOrThrow();
      assert.equal(file.hold_reason, 'litigation 42');
      assert.equal(await bytesOf(live._id, file.blob_version!), 'current bytes');
      const gone = await database.db.selectFrom('trashed_files').selectAll().executeTakeFirstOrThrow();
      assert.equal(gone.id, trashed._id);
      assert.equal(await bytesOf(trashed._id, gone.blob_version!), 'trashed bytes');
      const acl = await database.db.selectFrom('trashed_file_acl').select('identifier').execute();
      assert.deepEqual(acl.map((row) => row.identifier).sort(), [userId, reader.userId].sort());
      assert.deepEqual(await database.db.selectFrom('version_uploads').selectAll().execute(), []);
      // The triggers counted what was imported: the version, and the trash apart.
      const usage = await database.db
        .selectFrom('storage_usage')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(usage.bytes), 'current bytes'.length + 9);
      assert.equal(Number(usage.trash_bytes), 13);
    } finally {
      await database.close();
    }

    // --verify reads every version's bytes: damaged ones are named.
    await writeFile(path.join(exportDir, 'blobs', projectId, `${live._id}.${versionId}`), 'OLD BYTES');
    await assert.rejects(
      verifyExport(exportDir, silent),
      new RegExp(`${live._id} \\(version ${versionId}\\)`),
    );
  });
});
