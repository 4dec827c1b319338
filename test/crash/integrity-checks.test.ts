import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { ApiClient } from '../support/api-client.ts';
import { findInconsistentRows, type Target } from '../support/database-integrity.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { findMissingBlobs } from './check-blob-references.ts';

/**
 * The crash suites' checkers (test/support/database-integrity.ts, check-blob-references.ts)
 * against states that break each invariant of versions and trash (issue 38): each broken row
 * is written in SQL, found, then put back. A checker that finds nothing proves nothing.
 */
describe('the integrity checkers see broken versions and trash', () => {
  let server: TestServer;
  let target: Target;
  let projectId: string;
  const ids = { replaced: '', trashed: '', live: '', creator: '' };
  const run = (text: string) => sql.raw(text).execute(server.services.database.db);
  const problemsOf = async () => (await findInconsistentRows(target)).map((row) => row.problem);

  before(async () => {
    server = await startTestServer();
    const { config } = server.services;
    target = {
      dataDir: server.dataDir,
      env: {
        ...(config.databaseUrl.startsWith('postgres') ? { COFFER_DATABASE_URL: config.databaseUrl } : {}),
        COFFER_STORAGE_URL: config.storageUrl,
      },
    };
    const { client } = server;
    projectId = client.credentials.projectId;
    const owner = await client.signup();
    ids.creator = owner.userId;
    // A sound state holding every kind of row: an earlier version, a pending version upload
    // (its declared bytes count), a trashed file with its ACL.
    ids.replaced = (await client.uploadFile(owner.token, 'integrity/replaced.txt', 'first bytes'))._id;
    await replace(client, owner.token, ids.replaced, 'second, longer bytes');
    const pending = await client.call('POST', `/api/v1/file/${ids.replaced}/versions`, {
      token: owner.token,
      body: { contentLength: 5 },
    });
    assert.equal(pending.status, 200, pending.text);
    ids.trashed = (await client.uploadFile(owner.token, 'integrity/trashed.txt', 'trashed bytes'))._id;
    const trashed = await client.call('DELETE', `/api/v1/file/${ids.trashed}`, { token: owner.token });
    assert.equal(trashed.status, 204, trashed.text);
    ids.live = (await client.uploadFile(owner.token, 'integrity/live.txt', 'live bytes'))._id;
  });
  after(() => server?.stop());

  /** Breaks the state, expects `problem` found, puts it back and expects nothing found. */
  const expectFound = async (problem: string, breakIt: string, repairIt: string) => {
    assert.deepEqual(await problemsOf(), [], 'sound before');
    await run(breakIt);
    try {
      assert.ok((await problemsOf()).includes(problem), `${problem} not found after: ${breakIt}`);
    } finally {
      await run(repairIt);
    }
    assert.deepEqual(await problemsOf(), [], 'sound again');
  };

  it('a sound state with versions, a version upload and the trash passes both checkers', async () => {
    assert.deepEqual(await problemsOf(), []);
    assert.deepEqual(await findMissingBlobs(target), []);
  });

  it('finds usage that differs from a recount of files, versions, version uploads and the trash', async () => {
    const usage = `update storage_usage set %s where project_id = '${projectId}' and user_id = '${ids.creator}'`;
    await expectFound(
      'storage usage',
      usage.replace('%s', 'trash_bytes = trash_bytes + 1'),
      usage.replace('%s', 'trash_bytes = trash_bytes - 1'),
    );
    // The earlier version's 11 bytes: a recount without file_versions would miss them.
    await expectFound(
      'storage usage',
      usage.replace('%s', 'bytes = bytes - 11'),
      usage.replace('%s', 'bytes = bytes + 11'),
    );
  });

  it('finds an earlier version without its file, and one counted against what its file is', async () => {
    await expectFound(
      'version without file',
      `insert into file_versions (file_id, version_id, project_id, creator_id, blob_file_id, blob_version, etag,
         size_bytes, content_type, content_last_modified, created_at, created_by, noncurrent_at, counted)
       values ('gone-file', 'v1', '${projectId}', '${ids.creator}', 'gone-file', 'b1', '"e"', 0, 'text/plain',
         0, 0, '${ids.creator}', 0, 1)`,
      `delete from file_versions where file_id = 'gone-file'`,
    );
    await expectFound(
      'version counted',
      `update file_versions set counted = 0 where file_id = '${ids.replaced}'`,
      `update file_versions set counted = 1 where file_id = '${ids.replaced}'`,
    );
  });

  it('finds a version upload without its file', async () => {
    await expectFound(
      'version upload without file',
      `insert into version_uploads (id, file_id, project_id, creator_id, requested_by, expires_at, created_at)
       values ('gone-upload', 'gone-file', '${projectId}', '${ids.creator}', '${ids.creator}', 0, 0)`,
      `delete from version_uploads where id = 'gone-upload'`,
    );
  });

  it('finds a file both live and trashed, and a trashed file whose held bytes are not its content and versions', async () => {
    const columns = (await server.services.database.db
      .selectFrom('trashed_files')
      .selectAll()
      .where('id', '=', ids.trashed)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    const mirrored = Object.keys(columns)
      .filter((column) => !['trashed_at', 'trashed_by', 'held_bytes', 'folder_path'].includes(column))
      .join(', ');
    await expectFound(
      'live and trashed',
      `insert into trashed_files (${mirrored}, trashed_at, trashed_by, held_bytes)
       select ${mirrored}, 0, creator_id, content_size_bytes from files where id = '${ids.live}'`,
      `delete from trashed_files where id = '${ids.live}'`,
    );
    await expectFound(
      'trash held bytes',
      `update trashed_files set held_bytes = held_bytes + 1 where id = '${ids.trashed}'`,
      `update trashed_files set held_bytes = held_bytes - 1 where id = '${ids.trashed}'`,
    );
  });

  it('finds a trashed file without its creator entry', async () => {
    const entry = await server.services.database.db
      .selectFrom('trashed_file_acl')
      .selectAll()
      .where('file_id', '=', ids.trashed)
      .where('position', '=', 0)
      .executeTakeFirstOrThrow();
    await expectFound(
      'trashed without creator entry',
      `delete from trashed_file_acl where file_id = '${ids.trashed}' and position = 0`,
      `insert into trashed_file_acl (file_id, scope, identifier, position, project_id, file_created_at, shared_at)
       values ('${entry.file_id}', '${entry.scope}', '${entry.identifier}', 0, '${entry.project_id}',
         ${entry.file_created_at}, ${entry.shared_at})`,
    );
  });

  it("finds an earlier version's and a trashed file's bytes missing from the store", async () => {
    const neverStored = '0'.repeat(24); // well formed (a store refuses others), never written
    for (const table of ['file_versions', 'trashed_files']) {
      const column = table === 'file_versions' ? 'file_id' : 'id';
      const id = table === 'file_versions' ? ids.replaced : ids.trashed;
      const { rows } = await sql<{ blob_version: string }>`select blob_version from ${sql.table(table)}
        where ${sql.ref(column)} = ${id}`.execute(server.services.database.db);
      const kept = rows[0]!.blob_version;
      await run(`update ${table} set blob_version = '${neverStored}' where ${column} = '${id}'`);
      try {
        const missing = await findMissingBlobs(target);
        assert.ok(
          missing.some((name) => name.endsWith(`.${neverStored}`)),
          `${table}: ${JSON.stringify(missing)}`,
        );
      } finally {
        await run(`update ${table} set blob_version = '${kept}' where ${column} = '${id}'`);
      }
      assert.deepEqual(await findMissingBlobs(target), []);
    }
  });
});

/** New content for a file through the three steps (request, PUT, verify). */
async function replace(client: ApiClient, token: string, fileId: string, content: string): Promise<void> {
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
}
