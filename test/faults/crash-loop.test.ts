import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startCofferProcess } from '../support/coffer-process.ts';
import { startPrivatePostgres } from '../support/postgres-server.ts';

const serving = /"workerPid":(\d+),"msg":"worker \d+ serving"/;

/** The primary's backoff: its own PostgreSQL cluster, stopped so that workers cannot start. */
describe('a worker that keeps dying', () => {
  it('is replaced at once, then ever more slowly, and serves again once the cause is gone', async (t) => {
    const postgres = await startPrivatePostgres();
    if (!postgres) return t.skip('PostgreSQL is not installed (apt-get install -y postgresql)');
    // A worker that cannot reach its database at start exits at once (no start-up retries):
    // with the database stopped, every replacement dies, deterministically.
    const env = { COFFER_DATABASE_URL: postgres.url, COFFER_DATABASE_START_TIMEOUT_SECONDS: '0' };
    const coffer = await startCofferProcess({
      stack: { name: 'pg-s3', settings: {}, env, cleanup: async () => {} },
    });
    try {
      const firstPid = Number(serving.exec(coffer.output())![1]);
      let from = coffer.output().length;
      await postgres.stopImmediately();
      process.kill(firstPid, 'SIGKILL');
      const delays: number[] = [];
      while (delays.length < 4) {
        const exited = await coffer.waitForOutput(
          /worker \d+ exited \([^)]*\); starting another in (\d+) ms/,
          from,
        );
        delays.push(Number(exited[1]));
        from += exited.index + exited[0].length;
      }
      assert.deepEqual(delays, [0, 500, 1000, 2000]);
      process.kill(coffer.pid, 0); // throws if the primary is gone
      await postgres.start();
      await coffer.waitForOutput(serving, from);
      assert.equal((await fetch(`${coffer.baseUrl}/readyz`)).status, 200);
    } finally {
      await coffer.stop();
      await postgres.stop();
    }
  });
});
