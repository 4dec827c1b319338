import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Migrator } from 'kysely/migration';
import {
  migrateToLatest,
  migrationNames,
  migrationProvider,
} from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { toNewFileRow } from '../../src/persistence/repositories/files/create-file.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

/** Issue 39: videos and HEIC photos verified before migration 0035 get their summary after it. */
describe('0035_media_meta on files that predate it', () => {
  it('queues verified videos and HEIC photos for a summary, and nothing else', async () => {
    const database = await openDatabase({ databaseUrl: 'sqlite::memory:' });
    try {
      const before = migrationNames[migrationNames.indexOf('0035_media_meta') - 1]!;
      const migrated = await new Migrator({ db: database.db, provider: migrationProvider }).migrateTo(before);
      assert.equal(migrated.error, undefined);
      const projectId = await newProjectId(createRepositories(database.db));
      const rows = [
        ['clip.mp4', 'video/mp4', 1],
        ['photo.heic', 'image/heic', 1],
        ['photo.jpg', 'image/jpeg', 1],
        ['pending.mov', 'video/quicktime', 0],
      ] as const;
      for (const [filePath, contentType, verified] of rows) {
        const row = toNewFileRow(newFile(projectId, { creatorId: 'owner', filePath }), T0);
        await database.db
          .insertInto('files')
          .values({ ...row, content_type: contentType, verified, blob_version: 'v1' })
          .execute();
      }
      await migrateToLatest(database.db);
      const due = await database.db
        .selectFrom('files')
        .select(['file_path', 'image_summary_due'])
        .orderBy('file_path')
        .execute();
      assert.deepEqual(
        due.map((row) => [row.file_path, row.image_summary_due]),
        [
          ['clip.mp4', 1],
          ['pending.mov', 0],
          ['photo.heic', 1],
          ['photo.jpg', 0],
        ],
      );
    } finally {
      await database.close();
    }
  });
});
