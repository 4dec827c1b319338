import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { countAllRows, readAllRows } from '../../src/persistence/table-copy.ts';
import { databaseStores } from '../support/database-stores.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

const stores = await databaseStores();

for (const [name, open] of stores) {
  describe(`readAllRows on ${name}`, () => {
    it('yields every row once across pages (keyset, composite keys too), as many as it counts', async () => {
      const database = await open();
      try {
        await migrateToLatest(database.db);
        const repos = createRepositories(database.db);
        const projectId = await newProjectId(repos);
        // Past two pages of 1,000 files, and of ACL rows (two entries a file: its creator's and a role's).
        for (let i = 0; i < 1_050; i++) {
          const { file } = await repos.files.create(newFile(projectId), T0);
          await repos.files.addAclEntry(file.id, { scope: 'role', identifier: `team-${i % 3}` }, T0);
        }
        const seen = new Map<string, string[]>();
        for await (const { table, row } of readAllRows(database.db)) {
          const key =
            table === 'file_acl'
              ? `${row.file_id}|${row.scope}|${row.identifier}`
              : String(row.id ?? row.app_id);
          seen.set(table, [...(seen.get(table) ?? []), key]);
        }
        const files = seen.get('files') ?? [];
        const acl = seen.get('file_acl') ?? [];
        assert.equal(files.length, 1_050);
        assert.equal(new Set(files).size, files.length, 'no file twice');
        assert.equal(acl.length, 2_100);
        assert.equal(new Set(acl).size, acl.length, 'no ACL row twice');
        const total = [...seen.values()].reduce((sum, keys) => sum + keys.length, 0);
        assert.equal(await countAllRows(database.db), total);
      } finally {
        await database.close();
      }
    });
  });
}
