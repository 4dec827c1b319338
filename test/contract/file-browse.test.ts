import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileRecord } from '../../src/domain/files/file-record.ts';
import type { BrowsePage } from '../../src/domain/files/file-repository.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import {
  createRepositories,
  type Repositories,
} from '../../src/persistence/repositories/create-repositories.ts';
import { databaseStores } from '../support/database-stores.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

const stores = await databaseStores();

/** Code-point order, then id: the order the browser promises on both dialects. */
const byPathThenId = (a: FileRecord, b: FileRecord) => {
  if (a.filePath !== b.filePath) return a.filePath < b.filePath ? -1 : 1;
  return a.id < b.id ? -1 : 1;
};

async function browseAll(
  repos: Repositories,
  page: Omit<BrowsePage, 'after' | 'limit'>,
): Promise<FileRecord[]> {
  const seen: FileRecord[] = [];
  for (;;) {
    const last = seen.at(-1);
    const next = await repos.files.browse({
      ...page,
      limit: 7,
      after: last && { filePath: last.filePath, id: last.id },
    });
    seen.push(...next);
    if (next.length < 7) return seen;
  }
}

for (const [name, open] of stores) {
  describe(`file browser on ${name}`, () => {
    it('pages by (path, id) from the last one seen: each file once, in order, by creator and prefix', async () => {
      const database = await open();
      try {
        await migrateToLatest(database.db);
        const repos = createRepositories(database.db);
        const projectId = await newProjectId(repos);
        const [ada, bob] = ['ada-id', 'bob-id'];
        const created: FileRecord[] = [];
        // Shared paths between creators, upper and lower case, a non-ASCII path, nested folders.
        const paths = ['a/1.txt', 'a/2.txt', 'A/3.txt', 'b/x.txt', 'a/sub/4.txt', 'é/5.txt', 'ab.txt'];
        for (let i = 0; i < 30; i++) {
          for (const creatorId of [ada, bob]) {
            const filePath = `${paths[i % paths.length]}-${Math.floor(i / paths.length)}`;
            created.push((await repos.files.create(newFile(projectId, { creatorId, filePath }), T0)).file);
          }
        }
        const all = await browseAll(repos, { projectId });
        assert.deepEqual(
          all.map((file) => file.id),
          [...created].sort(byPathThenId).map((file) => file.id),
        );
        const adas = await browseAll(repos, { projectId, creatorId: ada });
        assert.deepEqual(
          adas.map((file) => file.id),
          created
            .filter((file) => file.creatorId === ada)
            .sort(byPathThenId)
            .map((file) => file.id),
        );
        const underA = await browseAll(repos, { projectId, prefix: 'a/' });
        const expected = created.filter((file) => file.filePath.startsWith('a/')).sort(byPathThenId);
        assert.deepEqual(
          underA.map((file) => file.id),
          expected.map((file) => file.id),
        );
        assert.ok(
          underA.every((file) => Array.isArray(file.acl)),
          'with their ACLs',
        );
        assert.deepEqual(await repos.files.browse({ projectId, prefix: 'zzz', limit: 7 }), []);
      } finally {
        await database.close();
      }
    });
  });
}
