import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { HttpLoad } from '../support/http-load.ts';
import { type PrivatePostgresServer, startPrivatePostgres } from '../support/postgres-server.ts';
import { assertCleanOutage, waitUntilReady } from './outage-checks.ts';

const busyTimeoutMs = 1000;

/** The database of a running Coffer dies (`pg_ctl stop -m immediate`) under load, then comes back. */
describe('PostgreSQL stopped and started again under load (its own cluster, local-disk blobs)', () => {
  let postgres: PrivatePostgresServer | undefined;
  let coffer: CofferProcess;
  before(async () => {
    postgres = await startPrivatePostgres({ durableCommits: true });
    if (!postgres) return;
    const env = { COFFER_DATABASE_URL: postgres.url, COFFER_DATABASE_BUSY_TIMEOUT_MS: String(busyTimeoutMs) };
    coffer = await startCofferProcess({
      stack: { name: 'pg-s3', settings: {}, env, cleanup: async () => {} },
    });
  });
  after(async () => {
    await coffer?.stop();
    await postgres?.stop();
  });

  it('answers 503 while it is down, recovers without a restart, and loses nothing acknowledged', async (t) => {
    if (!postgres) return t.skip('PostgreSQL is not installed (apt-get install -y postgresql)');
    const { client, baseUrl } = coffer;
    const owner = await client.signup();
    const contents = ['first', 'second', 'third'].map((word) => `verified before the outage: ${word}`);
    const verified = await Promise.all(
      contents.map((content, i) => client.uploadFile(owner.token, `before-${i}.txt`, content)),
    );
    const shared = verified[0]!._id;
    const headers = {
      'sb-app-id': coffer.credentials.appId,
      'sb-app-secret': coffer.credentials.appSecret,
      authorization: `Bearer ${owner.token}`,
    };
    const sharedRoles: string[] = [];
    const createdIds: string[] = [];
    let n = 0;
    // Reads with downloads, ACL writes, record writes and listings, all needing the database.
    const load = new HttpLoad(16, async (call, loop) => {
      n += 1;
      if (loop % 4 === 0) {
        const record = await call('read record', `${baseUrl}/api/v1/file/${verified[n % 3]!._id}`, {
          headers,
        });
        if (record?.status === 200) await call('download', record.json.url);
      } else if (loop % 4 === 1) {
        const role = `role-${loop}-${n}`;
        const url = `${baseUrl}/api/v1/file/${shared}/acl/role/${role}`;
        if ((await call('share', url, { method: 'POST', headers }))?.status === 200) sharedRoles.push(role);
      } else if (loop % 4 === 2) {
        const created = await call('request upload', `${baseUrl}/api/v1/file`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ filePath: `during/${loop}-${n}.txt` }),
        });
        if (created?.status === 200) createdIds.push(created.json.fileId);
      } else {
        await call('list', `${baseUrl}/api/v1/file`, { headers });
      }
    });
    try {
      await load.until((outcomes) => outcomes.filter((o) => o.status === 200).length >= 60, '60 answers');
      const stoppedAt = performance.now();
      await postgres.stopImmediately();
      await load.until(
        (outcomes) => outcomes.filter((o) => o.startedAt > stoppedAt && o.status === 503).length >= 40,
        '40 answers 503 while the database is down',
      );
      const readiness = await fetch(`${baseUrl}/readyz`);
      assert.equal(readiness.status, 503);
      assert.match((await readiness.json()).message, /database/);
      await postgres.start();
      const recoveredAt = await waitUntilReady(baseUrl);
      await load.until(
        (outcomes) => outcomes.filter((o) => o.startedAt > recoveredAt && o.status === 200).length >= 60,
        '60 answers after the database came back',
      );
      const outcomes = await load.stop();
      assertCleanOutage({ outcomes, coffer, busyTimeoutMs, recoveredAt });
    } finally {
      await load.stop();
    }

    // Nothing acknowledged was lost: the shares, the new records, the verified files' bytes.
    const after = await client.call('GET', `/api/v1/file/${shared}`, { token: owner.token });
    const roles = new Set(after.body.acl.map((entry: { identifier: string }) => entry.identifier));
    assert.deepEqual(
      sharedRoles.filter((role) => !roles.has(role)),
      [],
    );
    for (const id of createdIds) {
      const record = await client.call('GET', `/api/v1/file/${id}`, { token: owner.token });
      assert.equal(record.body.code, 'FILE_NOT_VERIFIED', `record ${id} answered 200 at creation`);
    }
    for (const [i, record] of verified.entries()) {
      const got = await client.call('GET', `/api/v1/file/${record._id}`, { token: owner.token });
      assert.equal(await (await fetch(got.body.url)).text(), contents[i]);
    }
  });
});
