/**
 * The hot-path read on PostgreSQL with and without prepared statements:
 * `npx node bench/pg/measure-prepared-statements.ts [--reads 5000] [--rounds 4]`.
 * Starts the tests' private PostgreSQL (or uses COFFER_TEST_POSTGRES_URL), migrates two
 * databases, creates 1,000 files with an ACL entry each, then reads random ones one after
 * another through `findFileById` (the query of every `GET /api/v1/file/:id`), the two settings
 * alternating. Prints per round the wall time per read and this process's CPU per read (the
 * driver and Kysely; the server's parse and plan show in the wall time only).
 */
import { parseArgs } from 'node:util';
import type { Database } from '../../src/persistence/database.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { findFileById } from '../../src/persistence/repositories/files/file-rows.ts';
import { newFile, newProjectId, T0 } from '../../test/contract/repository-fixtures.ts';
import { startPostgres } from '../../test/support/postgres-server.ts';

const { values } = parseArgs({ options: { reads: { type: 'string' }, rounds: { type: 'string' } } });
const reads = Number(values.reads ?? 5000);
const rounds = Number(values.rounds ?? 4);

const server = await startPostgres();
if (!server) {
  console.log('PostgreSQL is not installed (apt-get install -y postgresql): nothing to measure');
  process.exit(0);
}

async function openSeeded(preparedStatements: boolean): Promise<{ database: Database; ids: string[] }> {
  const database = await openDatabase({
    databaseUrl: await server!.createDatabase(),
    poolMax: 1,
    preparedStatements,
  });
  await migrateToLatest(database.db);
  const repos = createRepositories(database.db);
  const projectId = await newProjectId(repos);
  const ids: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const { file } = await repos.files.create(newFile(projectId, { filePath: `bench/${i}.txt` }), T0);
    await repos.files.addAclEntry(file.id, { scope: 'user', identifier: `reader-${i % 50}` }, T0);
    ids.push(file.id);
  }
  return { database, ids };
}

async function readRound({ database, ids }: { database: Database; ids: string[] }) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < reads; i++) await findFileById(database.db, ids[(i * 7919) % ids.length]!);
  const cpu = process.cpuUsage(cpuBefore);
  return {
    wallUs: Math.round(((performance.now() - started) * 1000) / reads),
    cpuUs: Math.round((cpu.user + cpu.system) / reads),
  };
}

const sides = { unnamed: await openSeeded(false), prepared: await openSeeded(true) };
try {
  for (let round = 1; round <= rounds; round++) {
    for (const [name, side] of Object.entries(sides)) {
      const { wallUs, cpuUs } = await readRound(side);
      console.log(
        `round ${round} ${name.padEnd(8)} ${wallUs} µs per read, ${cpuUs} µs of this process's CPU`,
      );
    }
  }
} finally {
  for (const side of Object.values(sides)) await side.database.close();
  await server.stop();
}
