import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrationNames } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { startTestServer, type TestServer } from './in-process-server.ts';
import { compiledSchemas } from './shared-schema-compilers.ts';
import { currentStackName, prepareTestStack } from './test-stack.ts';

/**
 * Issue 44, item 7: what a test server costs to start. A second server of the process reuses
 * the first one's response serializers and starts on a migrated copy of the database; each
 * still answers alone, on a database of its own.
 */
describe('test servers', () => {
  const servers: TestServer[] = [];
  before(async () => {
    servers.push(await startTestServer());
  });
  after(() => Promise.all(servers.map((server) => server.stop())));

  it('a second server compiles no response serializer or request validator, and answers as the first does', async () => {
    const compiled = compiledSchemas();
    assert.ok(compiled > 0);
    servers.push(await startTestServer());
    assert.equal(compiledSchemas(), compiled);
    const records = [];
    for (const server of servers) {
      const { token } = await server.client.signup();
      records.push(await server.client.uploadFile(token, 'same.txt', 'same bytes'));
    }
    // The same fields (a serializer drops those its schema does not name) on both servers.
    const [first, second] = records;
    assert.ok(first && second);
    assert.deepEqual(Object.keys(second).sort(), Object.keys(first).sort());
    assert.equal(second.filePath, 'same.txt');
  });

  it('each server has a database of its own (a copy, not a shared one)', async () => {
    const [first, second] = servers;
    assert.ok(first && second);
    const { projects } = second.services.repositories;
    assert.equal(await projects.findById(first.credentials.projectId), undefined);
    assert.ok(await projects.findById(second.credentials.projectId));
  });

  it("on PostgreSQL with the run's template, a server's database starts migrated", {
    skip:
      (currentStackName() !== 'pg-s3' || !process.env.COFFER_TEST_POSTGRES_TEMPLATE) &&
      'the PostgreSQL + S3 pass of scripts/run-tests.js only',
  }, async () => {
    const stack = await prepareTestStack({ migrated: true });
    const database = await openDatabase({ databaseUrl: stack.settings['database-url']! });
    try {
      const rows = await database.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      assert.equal(rows.length, migrationNames.length);
    } finally {
      await database.close();
      await stack.cleanup();
    }
  });
});
