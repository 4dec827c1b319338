import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import {
  migrateToLatest,
  migrationNames,
  migrationProvider,
} from '../../src/persistence/migrations/migrate-to-latest.ts';
import { migrationSafety } from '../../src/persistence/migrations/migration-safety.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { runCli } from '../support/coffer-process.ts';
import { prepareTestStack, type TestStack } from '../support/test-stack.ts';

/** Issue 43: `coffer migrate --dry-run` says what an upgrade would run, and whether older nodes may keep serving. */
describe('coffer migrate --dry-run', () => {
  let stack: TestStack;
  let dataDir: string;
  let databaseUrl: string;
  before(async () => {
    stack = await prepareTestStack();
    dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-dry-run-'));
    databaseUrl = stack.env.COFFER_DATABASE_URL ?? `sqlite:${path.join(dataDir, 'coffer.db')}`;
  });
  after(async () => {
    await stack.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });
  const dryRun = (...flags: string[]) =>
    runCli(['migrate', '--dry-run', '--data-dir', dataDir, ...flags], stack.env);
  const classified = (names: string[]) => names.map((name) => ({ name, ...migrationSafety[name] }));

  it('on an empty database lists every migration, and creates nothing', async () => {
    const result = await dryRun('--json');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout).pending, classified(migrationNames));
    if (stack.name === 'embedded') assert.equal(existsSync(path.join(dataDir, 'coffer.db')), false);
  });

  it('lists only the migrations not yet run, each expand or CONTRACT with its reason, and none once migrated', async () => {
    const database = await openDatabase({ databaseUrl });
    try {
      const migrated = await new Migrator({ db: database.db, provider: migrationProvider }).migrateTo(
        '0035_media_meta',
      );
      assert.equal(migrated.error, undefined);
    } finally {
      await database.close();
    }
    const pendingNames = migrationNames.slice(migrationNames.indexOf('0035_media_meta') + 1);
    const json = await dryRun('--json');
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).pending, classified(pendingNames));

    const text = await dryRun();
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^${pendingNames.length} pending migration\\(s\\)`));
    assert.match(text.stdout, /0036_content_crc32 +CONTRACT older nodes advance a resumable upload/);
    assert.match(text.stdout, /0037_search_indexes +expand +search tables kept by triggers/);
    assert.match(text.stdout, /CONTRACT: stop every node of the older release before migrating/);

    const migrate = await runCli(['migrate', '--data-dir', dataDir], stack.env);
    assert.equal(migrate.code, 0, migrate.stderr);
    const none = await dryRun('--json');
    assert.deepEqual(JSON.parse(none.stdout), { pending: [] });
    assert.match((await dryRun()).stdout, /No migration is pending/);
  });

  it('a database a newer release migrated: the dry run, migrate and serve say so at once, without retrying', async () => {
    const database = await openDatabase({ databaseUrl });
    try {
      await migrateToLatest(database.db);
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_release', ${new Date().toISOString()})`.execute(
        database.db,
      );
    } finally {
      await database.close();
    }
    const said =
      /^coffer: the database was migrated by a newer release of Coffer \(it ran migration 9999_from_a_newer_release, which this release does not have\): run that release, or restore a backup/m;
    for (const args of [['migrate', '--dry-run'], ['migrate'], ['serve', '--port', '0']]) {
      const result = await runCli([...args, '--data-dir', dataDir], stack.env, { timeoutMs: 300_000 });
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, said, args.join(' '));
      assert.doesNotMatch(result.stderr, /not reachable yet/, args.join(' '));
    }
  });
});
