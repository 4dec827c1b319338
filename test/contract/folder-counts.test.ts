import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { deleteAccount } from '../../src/domain/identity/delete-account.ts';
import type { Database } from '../../src/persistence/database.ts';
import {
  migrateToLatest,
  migrationNames,
  migrationProvider,
} from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { toNewFileRow } from '../../src/persistence/repositories/files/create-file.ts';
import { accountDeletion } from '../../src/wiring/account-deletion.ts';
import { chooseSeed, toRounds } from '../support/fuzz-settings.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

type FolderRow = {
  owner_id: string;
  path: string;
  parent: string | null;
  file_count: number;
  total_bytes: number;
};
type FileRow = { creator_id: string; file_path: string; verified: number; content_size_bytes: number | null };

/** The folders a set of file rows makes, recounted from scratch (the model the triggers must keep). */
function recount(files: FileRow[]): FolderRow[] {
  const folders = new Map<string, FolderRow>();
  for (const file of files) {
    const bytes = file.verified === 1 ? Number(file.content_size_bytes ?? 0) : 0;
    let parent: string | null = null;
    for (let end = 0; end !== -1; end = file.file_path.indexOf('/', end) + 1 || -1) {
      const path = file.file_path.slice(0, end);
      const key = `${file.creator_id}\n${path}`;
      const row = folders.get(key) ?? {
        owner_id: file.creator_id,
        path,
        parent,
        file_count: 0,
        total_bytes: 0,
      };
      row.file_count += 1;
      row.total_bytes += bytes;
      folders.set(key, row);
      parent = path;
    }
  }
  return [...folders.values()].sort(byKey);
}

const byKey = (a: FolderRow, b: FolderRow) =>
  a.owner_id === b.owner_id
    ? a.path < b.path
      ? -1
      : a.path > b.path
        ? 1
        : 0
    : a.owner_id < b.owner_id
      ? -1
      : 1;

async function readState(database: Database, projectId: string) {
  const files = await sql<FileRow>`select creator_id, file_path, verified, content_size_bytes
    from files where project_id = ${projectId}`.execute(database.db);
  const folders = await sql<FolderRow>`select owner_id, path, parent, file_count, total_bytes
    from folders where project_id = ${projectId}`.execute(database.db);
  const kept = folders.rows
    .map((row) => ({ ...row, file_count: Number(row.file_count), total_bytes: Number(row.total_bytes) }))
    .sort(byKey);
  return { kept, recounted: recount(files.rows) };
}

// Issue 36: the folders table equals a recount of the files after any mix of writes, on the
// stack the environment names (SQLite + disk, or PostgreSQL + S3 under scripts/run-tests.js).
describe(`folder counts kept by triggers (${currentStackName()})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('equal a recount after random uploads, requests, moves, copies, deletes and user deletions', async () => {
    const random = seededRandom(chooseSeed('folder counts'));
    const { client } = server;
    const segment = () => random.pick(['a', 'b', 'c d', 'é']);
    const randomPath = () =>
      [...Array.from({ length: random.int(0, 3) }, segment), random.pick(['x.txt', 'y.txt'])].join('/');
    const project = (await server.services.repositories.projects.findById(client.credentials.projectId))!;
    const rounds = toRounds(3);
    /** The kinds of writes that succeeded; a refusal must be a 4xx (a file or user gone, a path taken). */
    const done = new Set<string>();
    const answered = (response: { status: number; text: string }, kind: string) => {
      assert.ok(response.status < 500, `${kind}: ${response.status} ${response.text}`);
      if (response.status < 300) done.add(kind);
      return response.status < 300;
    };
    for (let round = 0; round < rounds; round++) {
      const users = [await client.signup(), await client.signup(), await client.signup()];
      const live: Array<{ id: string; token: string }> = [];
      for (let step = 0; step < 40; step++) {
        const user = random.pick(users);
        const kind = live.length === 0 ? 0 : random.int(0, 6);
        const existing = live.length === 0 ? undefined : random.pick(live);
        const path = randomPath();
        if (kind === 0 || kind === 5) {
          const content = 'z'.repeat(random.int(0, 50));
          // A taken path is the one refusal expected (409 FILE_EXISTS).
          const file = await client.uploadFile(user.token, path, content).catch((error: Error) => {
            assert.match(error.message, /upload request failed: 409 /);
          });
          if (file) live.push({ id: file._id, token: user.token });
          done.add(file ? 'upload' : 'refused');
        } else if (kind === 1) {
          // An unverified record: counted as a file, with no bytes yet.
          const requested = await client.call('POST', '/api/v1/file', {
            token: user.token,
            body: { filePath: path },
          });
          if (answered(requested, 'request')) live.push({ id: requested.body.fileId, token: user.token });
        } else if (kind === 2 && existing) {
          const moved = await client.call('POST', `/api/v1/file/${existing.id}/move`, {
            token: existing.token,
            body: { filePath: path },
          });
          answered(moved, 'move');
        } else if (kind === 3 && existing) {
          const copied = await client.call('POST', `/api/v1/file/${existing.id}/copy`, {
            token: existing.token,
            body: { filePath: path },
          });
          if (answered(copied, 'copy')) live.push({ id: copied.body._id, token: existing.token });
        } else if (kind === 4 && existing) {
          answered(
            await client.call('DELETE', `/api/v1/file/${existing.id}`, { token: existing.token }),
            'delete',
          );
        } else if (kind === 6 && round % 2 === 0) {
          const gone = users.splice(random.int(0, users.length - 1), 1)[0]!;
          await deleteAccount(
            { ...accountDeletion(server.services), settle: async () => {} },
            project,
            gone.userId,
          );
          users.push(await client.signup());
          done.add('user deletion');
        }
      }
      // One write of each kind that cannot be refused (paths no random step makes), so every
      // kind is exercised in every round, whatever the random steps happened to be refused.
      const owner = users[0]!;
      const sure = `sure ${round}`;
      const uploaded = await client.uploadFile(owner.token, `${sure}/a/x.txt`, 'sure');
      done.add('upload');
      const requested = await client.call('POST', '/api/v1/file', {
        token: owner.token,
        body: { filePath: `${sure}/b/y.txt` },
      });
      answered(requested, 'request');
      const steps = [
        ['move', `/api/v1/file/${uploaded._id}/move`, `${sure}/c/x.txt`],
        ['copy', `/api/v1/file/${uploaded._id}/copy`, `${sure}/d/x.txt`],
      ] as const;
      for (const [kind, url, filePath] of steps) {
        const answer = await client.call('POST', url, { token: owner.token, body: { filePath } });
        assert.equal(answer.status, 200, `${kind}: ${answer.text}`);
        answered(answer, kind);
      }
      const deleted = await client.call('DELETE', `/api/v1/file/${requested.body.fileId}`, {
        token: owner.token,
      });
      assert.equal(deleted.status, 204, deleted.text);
      answered(deleted, 'delete');
      const { kept, recounted } = await readState(server.services.database, project.id);
      assert.ok(kept.length > 0);
      assert.deepEqual(
        ['copy', 'delete', 'move', 'request', 'upload'].filter((kind) => !done.has(kind)),
        [],
        'every kind of write succeeded at least once',
      );
      assert.deepEqual(kept, recounted, `round ${round}`);
    }
  });
});

describe('folder counts of files that predate the migration', () => {
  it('are backfilled by 0030_folders', async () => {
    const database = await openDatabase({ databaseUrl: 'sqlite::memory:' });
    try {
      const before = migrationNames[migrationNames.indexOf('0030_folders') - 1]!;
      const migrated = await new Migrator({ db: database.db, provider: migrationProvider }).migrateTo(before);
      assert.equal(migrated.error, undefined);
      const repos = createRepositories(database.db);
      const projectId = await newProjectId(repos);
      // The rows as an upload request writes them (today's repositories also read later tables).
      for (const filePath of ['one.txt', 'a/two.txt', 'a/b/three.txt', 'a/"q\'/four.txt'])
        await database.db
          .insertInto('files')
          .values(toNewFileRow(newFile(projectId, { creatorId: 'owner', filePath }), T0))
          .execute();
      await migrateToLatest(database.db);
      const { kept, recounted } = await readState(database, projectId);
      assert.equal(kept.length, 4);
      assert.deepEqual(kept, recounted);
    } finally {
      await database.close();
    }
  });
});
