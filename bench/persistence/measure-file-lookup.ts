/**
 * The hot path's file read (every `GET /api/v1/file/:id` and every download reads its file with
 * its ACL) with and without the view cache (repositories/files/file-view-cache.ts), in one
 * process, on SQLite or PostgreSQL: `node bench/persistence/measure-file-lookup.ts [--stack pg]
 * [--reads 20000] [--rounds 4]`. Reads one hot file (as a burst of requests for one file does)
 * and then random ones of 1,000, the two ways alternating; prints wall time and this process's
 * CPU per read. Isolated from the HTTP path, so a shared machine's noise stays small.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { selectFileWithAcl, withFolderAcl } from '../../src/persistence/repositories/files/file-rows.ts';
import { prepareQuery } from '../../src/persistence/repositories/prepared-query.ts';
import { newFile, newProjectId, T0 } from '../../test/contract/repository-fixtures.ts';
import { startPostgres } from '../../test/support/postgres-server.ts';

const { values } = parseArgs({
  options: { reads: { type: 'string' }, rounds: { type: 'string' }, stack: { type: 'string' } },
});
const reads = Number(values.reads ?? 20_000);
const rounds = Number(values.rounds ?? 4);
const dir = await mkdtemp(path.join(tmpdir(), 'coffer-file-lookup-'));
const postgres = values.stack === 'pg' ? await startPostgres() : undefined;
if (values.stack === 'pg' && !postgres) throw new Error('--stack pg needs PostgreSQL');
const database = await openDatabase({
  databaseUrl: postgres?.url ?? `sqlite:${path.join(dir, 'coffer.db')}`,
});
try {
  await migrateToLatest(database.db);
  const repos = createRepositories(database.db);
  const projectId = await newProjectId(repos);
  const ids: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const { file } = await repos.files.create(newFile(projectId), T0);
    await repos.files.addAclEntry(file.id, { scope: 'role', identifier: 'readers' }, T0);
    ids.push(file.id);
  }
  // The full read as the repository ran it before the cache: the query compiled once.
  const selectFull = prepareQuery(database.db, (id: string) => selectFileWithAcl(database.db, id), ['']);
  const ways = {
    'full read': async (id: string) => withFolderAcl(database.db, await selectFull(id)),
    'view cache': (id: string) => repos.files.findById(id),
  };
  for (const [pattern, pick] of [
    ['one hot file', () => ids[0]!],
    ['random of 1,000', () => ids[Math.floor(Math.random() * ids.length)]!],
  ] as const) {
    for (let round = 0; round < rounds; round++) {
      for (const [name, read] of Object.entries(ways)) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        for (let i = 0; i < reads; i++) await read(pick());
        const wallUs = ((performance.now() - started) * 1000) / reads;
        const used = process.cpuUsage(cpu);
        const cpuUs = (used.user + used.system) / reads;
        console.log(
          `${pattern.padEnd(16)} round ${round + 1} ${name.padEnd(10)} ${wallUs.toFixed(1)} µs wall, ${cpuUs.toFixed(1)} µs CPU per read`,
        );
      }
    }
  }
} finally {
  await database.close();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
}
