import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { FileSearchQuery } from '../../src/domain/files/file-search.ts';
import { noContract } from '../../src/domain/files/upload-contract.ts';
import {
  migrateToLatest,
  migrationNames,
  migrationProvider,
} from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

/**
 * 0048_upload_write_path (SQLite) on files that predate it: search by type and in size order
 * answers as before (its type and size indexes now hold only files with content), an upload
 * request writes its row once, a share still moves the stamp, and the migration goes down and
 * up again.
 */
describe('0048_upload_write_path on files that predate it', () => {
  it('search answers the same; the creator entry leaves the stamp, a share moves it; down and up', async () => {
    const database = await openDatabase({ databaseUrl: 'sqlite::memory:' });
    try {
      const { db } = database;
      const before = migrationNames[migrationNames.indexOf('0048_upload_write_path') - 1]!;
      const migrator = new Migrator({ db, provider: migrationProvider });
      assert.equal((await migrator.migrateTo(before)).error, undefined);
      const repos = createRepositories(db);
      const projectId = await newProjectId(repos);
      const file = async (filePath: string) =>
        (await repos.files.create(newFile(projectId, { creatorId: 'owner', filePath }), T0)).file;
      const stamp = async (id: string) =>
        Number(
          (await db.selectFrom('files').select('row_stamp').where('id', '=', id).executeTakeFirst())
            ?.row_stamp,
        );
      const small = await file('a/small.png');
      const large = await file('a/large.png');
      const pending = await file('a/pending.png');
      assert.equal(await stamp(small.id), 1, 'before: the creator entry rewrote the row');
      for (const [id, size] of [
        [small.id, 10],
        [large.id, 1000],
      ] as const)
        await db
          .updateTable('files')
          .set({ verified: 1, content_type: 'image/png', content_size_bytes: size })
          .where('id', '=', id)
          .execute();

      await migrateToLatest(db);
      const search = (query: Partial<FileSearchQuery>) =>
        repos.files.search({
          projectId,
          readerId: 'owner',
          readerRole: 'user',
          isAdmin: false,
          filters: { customData: [] },
          sort: 'createdAt',
          order: 'desc',
          scope: 'mine',
          limit: 10,
          offset: 0,
          ...query,
        });
      const paths = async (query: Partial<FileSearchQuery>) =>
        (await search(query)).files.map((found) => found.filePath);
      for (const isAdmin of [false, true]) {
        const scope = isAdmin ? 'all' : 'mine';
        assert.deepEqual(await paths({ isAdmin, scope, sort: 'size' }), ['a/large.png', 'a/small.png']);
        assert.deepEqual(await paths({ isAdmin, scope, sort: 'size', order: 'asc' }), [
          'a/small.png',
          'a/large.png',
        ]);
        for (const contentType of [{ exact: 'image/png' }, { prefix: 'image/' }])
          assert.deepEqual(
            await paths({ isAdmin, scope, sort: 'size', filters: { customData: [], contentType } }),
            ['a/large.png', 'a/small.png'],
          );
        assert.deepEqual(await paths({ isAdmin, scope, filters: { customData: [], minSize: 100 } }), [
          'a/large.png',
        ]);
      }
      // The indexes' own statements (search-candidates.ts names them) find the same files.
      const typed = await sql<{ n: number }>`select count(*) as n from files f indexed by files_project_type
        where f.project_id = ${projectId} and f.content_type = 'image/png'`.execute(db);
      assert.equal(Number(typed.rows[0]?.n), 2);
      const sized = await sql<{ n: number }>`select count(*) as n from files f indexed by files_creator_size
        where f.project_id = ${projectId} and f.creator_id = 'owner' and f.content_size_bytes >= 0`.execute(
        db,
      );
      assert.equal(Number(sized.rows[0]?.n), 2);
      assert.deepEqual((await paths({})).sort(), ['a/large.png', pending.filePath, 'a/small.png']);

      const created = await file('b/new.txt');
      assert.equal(await stamp(created.id), 0, 'after: the upload request wrote its row once');
      await repos.files.addAclEntry(created.id, { scope: 'user', identifier: 'reader' }, T0);
      assert.ok((await stamp(created.id)) > 0, 'a share moves the stamp');

      // The usage rows count a file that declared no length, and one that did, as before.
      const usage = async () =>
        (
          await db
            .selectFrom('storage_usage')
            .select(['user_id', 'files', 'bytes'])
            .where('project_id', '=', projectId)
            .orderBy('user_id')
            .execute()
        ).map((row) => [row.user_id, Number(row.files), Number(row.bytes)]);
      const counted = await usage();
      await file('b/undeclared.txt');
      await repos.files.create(
        newFile(projectId, {
          creatorId: 'owner',
          filePath: 'b/declared.txt',
          declared: { ...noContract, sizeBytes: 7 },
        }),
        T0,
      );
      assert.deepEqual(
        await usage(),
        counted.map(([user, files, bytes]) => [user, Number(files) + 2, Number(bytes) + 7]),
      );

      assert.equal((await migrator.migrateTo(before)).error, undefined);
      assert.equal(await stamp((await file('c/old.txt')).id), 1, 'down: as before');
      assert.deepEqual(
        await usage(),
        counted.map(([user, files, bytes]) => [user, Number(files) + 3, Number(bytes) + 7]),
      );
      await migrateToLatest(db);
      assert.equal(await stamp((await file('d/again.txt')).id), 0, 'up again');
    } finally {
      await database.close();
    }
  });
});
