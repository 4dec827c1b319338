import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { type PostgresServer, startPostgres } from '../support/postgres-server.ts';
import { startRgwOrS3rver } from '../support/rgw-server.ts';
import type { S3TestServer } from '../support/s3-server.ts';
import { currentStackName } from '../support/test-stack.ts';

/** /readyz names the failing part; serve waits for a database that is not up yet. */
// Its own PostgreSQL and S3 servers, whatever the pass: one pass runs it.
describe('readiness and start-up on PostgreSQL + S3 (own servers, stopped on purpose)', {
  skip: currentStackName() === 'pg-s3' && 'own servers, not the pass’s: runs in the embedded pass',
}, () => {
  let postgres: PostgresServer | undefined;
  let s3: S3TestServer;
  let coffer: CofferProcess;
  before(async () => {
    postgres = await startPostgres();
    if (!postgres) return;
    s3 = await startRgwOrS3rver();
    const env = {
      COFFER_DATABASE_URL: postgres.url,
      COFFER_STORAGE_URL: s3.storageUrl,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      COFFER_DATABASE_BUSY_TIMEOUT_MS: '1000',
    };
    coffer = await startCofferProcess({
      stack: { name: 'pg-s3', settings: {}, env, cleanup: async () => {} },
    });
  });
  after(async () => {
    await coffer?.stop();
    await s3?.stop(); // stopped by the test already, unless it failed first
    await postgres?.stop().catch(() => {});
  });

  it('answers 503 naming the blob store, then the database, when each goes down', async (t) => {
    if (!postgres) return t.skip('PostgreSQL is not installed (apt-get install -y postgresql)');
    assert.equal((await fetch(`${coffer.baseUrl}/readyz`)).status, 200);
    await s3.stop();
    const noBlobs = await fetch(`${coffer.baseUrl}/readyz`);
    assert.equal(noBlobs.status, 503);
    const noBlobsBody = await noBlobs.json();
    assert.equal(noBlobsBody.code, 'UNAVAILABLE');
    assert.match(noBlobsBody.message, /blob store/);
    await postgres.stop();
    const noDatabase = await fetch(`${coffer.baseUrl}/readyz`);
    assert.equal(noDatabase.status, 503);
    assert.match((await noDatabase.json()).message, /database/);
    assert.equal((await fetch(`${coffer.baseUrl}/healthz`)).status, 200, 'the process itself still serves');
  });

  it('serve retries an unreachable database with a log line per attempt, then gives up clearly', async () => {
    const result = await runCli(['serve', '--port', '0'], {
      COFFER_DATABASE_URL: 'postgres://coffer@127.0.0.1:1/none',
      // Long enough for two attempts however slowly this machine starts a process.
      COFFER_DATABASE_START_TIMEOUT_SECONDS: '8',
      COFFER_DATA_DIR: '/tmp',
      // No blob directory in /tmp: serve makes the local stores' directories at start.
      COFFER_STORAGE_URL: 'memory:',
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /database not reachable yet \(attempt 1/);
    assert.match(result.stderr, /attempt 2/);
  });
});
