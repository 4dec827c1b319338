import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { withReadSnapshot } from '../../src/persistence/read-snapshot.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { countAllRows, readAllRows } from '../../src/persistence/table-copy.ts';
import { startPostgres } from '../support/postgres-server.ts';
import { newFile, newProjectId, T0 } from './repository-fixtures.ts';

/** A fresh database URL per call: a SQLite file (two connections can share it), and PostgreSQL when installed. */
const postgres = await startPostgres();
const sqliteDir = await mkdtemp(path.join(tmpdir(), 'coffer-table-copy-'));
after(async () => {
  await postgres?.stop();
  await rm(sqliteDir, { recursive: true, force: true });
});
let sqliteFiles = 0;
const databases: [name: string, newUrl: () => Promise<string>][] = [
  ['SQLite', async () => `sqlite:${path.join(sqliteDir, `db-${++sqliteFiles}.sqlite`)}`],
];
if (postgres) databases.push(['PostgreSQL', () => postgres.createDatabase()]);

async function collect(rows: AsyncIterable<{ table: string; row: Record<string, unknown> }>) {
  const seen = new Map<string, Record<string, unknown>[]>();
  for await (const { table, row } of rows) seen.set(table, [...(seen.get(table) ?? []), row]);
  return seen;
}

for (const [name, newUrl] of databases) {
  describe(`readAllRows on ${name}`, () => {
    it('yields every row once across pages (keyset, composite keys too), as many as it counts', async () => {
      const database = await openDatabase({ databaseUrl: await newUrl() });
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

  describe(`withReadSnapshot on ${name}`, () => {
    it('reads every table as of one moment while another connection keeps writing', async () => {
      const url = await newUrl();
      const server = await openDatabase({ databaseUrl: url });
      const exporter = await openDatabase({ databaseUrl: url });
      try {
        await migrateToLatest(server.db);
        const repos = createRepositories(server.db);
        const projectId = await newProjectId(repos);
        const { file: before } = await repos.files.create(newFile(projectId), T0);
        let later: string | undefined;
        const [counted, seen] = await withReadSnapshot(exporter, async (snapshot) => {
          const counted = await countAllRows(snapshot);
          const seen = new Map<string, Record<string, unknown>[]>();
          for await (const { table, row } of readAllRows(snapshot)) {
            // Written and committed by the other connection while the snapshot reads, before
            // it reaches files and file_acl (an upload landing during an export): it sees neither.
            if (later === undefined) {
              const { file } = await repos.files.create(newFile(projectId), T0);
              await repos.files.addAclEntry(file.id, { scope: 'role', identifier: 'team' }, T0);
              later = file.id;
            }
            seen.set(table, [...(seen.get(table) ?? []), row]);
          }
          return [counted, seen] as const;
        });
        assert.deepEqual(
          seen.get('files')?.map((row) => row.id),
          [before.id],
        );
        assert.deepEqual(
          seen.get('file_acl')?.map((row) => row.file_id),
          [before.id],
          "no ACL entry of a file the snapshot doesn't hold",
        );
        assert.equal(
          counted,
          [...seen.values()].reduce((sum, rows) => sum + rows.length, 0),
        );
        // The snapshot ended: the same handle now reads the write.
        const now = await collect(readAllRows(exporter.db));
        assert.ok(now.get('files')?.some((row) => row.id === later));
      } finally {
        await exporter.close();
        await server.close();
      }
    });
  });
}
