import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Migrator } from 'kysely/migration';
import {
  migrateToLatest,
  migrationNames,
  migrationProvider,
} from '../../src/persistence/migrations/migrate-to-latest.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { toNewFileRow } from '../../src/persistence/repositories/files/create-file.ts';
import { databaseStores } from '../support/database-stores.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

const stores = await databaseStores();
/** The largest CRC-32: past PostgreSQL's `integer`, hence BIGINT. */
const largest = 0xffff_ffff;

/** Issue 40: files verified before migration 0036 have no CRC-32 until one is computed and saved. */
for (const [name, open] of stores) {
  describe(`0036_content_crc32 on files that predate it (${name})`, () => {
    it('leaves their CRC null; saving one takes only while the blob version is still current', async () => {
      const database = await open();
      try {
        const before = migrationNames[migrationNames.indexOf('0036_content_crc32') - 1]!;
        assert.equal(before, '0035_media_meta');
        const migrated = await new Migrator({ db: database.db, provider: migrationProvider }).migrateTo(
          before,
        );
        assert.equal(migrated.error, undefined);
        const repos = createRepositories(database.db);
        const projectId = await newProjectId(repos);
        const file = newFile(projectId, { creatorId: 'owner', filePath: 'older.bin' });
        const row = toNewFileRow(file, T0);
        await database.db
          .insertInto('files')
          .values({
            ...row,
            verified: 1,
            etag: '"e"',
            blob_version: 'v1',
            content_size_bytes: 3,
            content_type: 'application/octet-stream',
            content_last_modified: T0.getTime(),
          })
          .execute();
        await migrateToLatest(database.db);
        const older = await repos.files.findById(file.id);
        assert.equal(older?.contentCrc32, null);
        assert.equal(await repos.files.saveContentCrc32(file.id, 'v0', 7), false, 'not its version');
        assert.equal((await repos.files.findById(file.id))?.contentCrc32, null);
        assert.equal(await repos.files.saveContentCrc32(file.id, 'v1', largest), true);
        assert.equal((await repos.files.findById(file.id))?.contentCrc32, largest);
      } finally {
        await database.close();
      }
    });
  });
}
