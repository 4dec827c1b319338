import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { HttpLoad } from '../support/http-load.ts';
import { startRgwOrS3rver } from '../support/rgw-server.ts';
import type { S3TestServer } from '../support/s3-server.ts';
import { currentStackName, prepareTestStack, type TestStack } from '../support/test-stack.ts';
import { assertCleanOutage, waitUntilReady } from './outage-checks.ts';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * The S3 store of a running Coffer dies (SIGKILL) under upload load, then comes back. The
 * metadata store is the current stack's (SQLite, or PostgreSQL); the S3 server is this test's own.
 */
describe(`the S3 store killed and started again under load (${currentStackName()} metadata)`, () => {
  let stack: TestStack;
  let s3: S3TestServer;
  let coffer: CofferProcess;
  before(async () => {
    stack = await prepareTestStack();
    s3 = await startRgwOrS3rver();
    const env = {
      ...stack.env,
      COFFER_STORAGE_URL: s3.storageUrl,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: 'us-east-1',
    };
    coffer = await startCofferProcess({ stack: { ...stack, env } });
  });
  after(async () => {
    await coffer?.stop();
    await s3?.stop();
    await stack?.cleanup();
  });

  it('answers 503 while it is down, recovers without a restart, and loses nothing acknowledged', async () => {
    const { client, baseUrl } = coffer;
    const owner = await client.signup();
    const before = await client.uploadFile(owner.token, 'before.txt', 'verified before the outage');
    const headers = {
      'sb-app-id': coffer.credentials.appId,
      'sb-app-secret': coffer.credentials.appSecret,
      authorization: `Bearer ${owner.token}`,
    };
    const json = { ...headers, 'content-type': 'application/json' };
    /** Uploads answered 200 (with their content's hash), and which of them verify answered 200 for. */
    const stored = new Map<string, { etag: string; sha: string; verified: boolean }>();
    let n = 0;
    // Uploads through the gateway into S3 (request, PUT, verify), and record reads.
    const load = new HttpLoad(12, async (call, loop) => {
      n += 1;
      if (loop % 3 === 2) {
        await call('read record', `${baseUrl}/api/v1/file/${before._id}`, { headers });
        return;
      }
      const content = `upload ${loop}-${n}: ${'x'.repeat(n % 5000)}`;
      const requested = await call('request upload', `${baseUrl}/api/v1/file`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ filePath: `during/${loop}-${n}.txt` }),
      });
      if (requested?.status !== 200) return;
      const { fileId, putFileUrl } = requested.json;
      const put = await call('upload', putFileUrl, { method: 'PUT', body: content });
      if (put?.status !== 200) return;
      const etag = String(put.headers.etag);
      stored.set(fileId, { etag, sha: sha256(content), verified: false });
      const verify = await call('verify', `${baseUrl}/api/v1/file/${fileId}/verify`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ etag }),
      });
      if (verify?.status === 200) stored.get(fileId)!.verified = true;
    });
    try {
      await load.until(
        (outcomes) => outcomes.filter((o) => o.name === 'verify' && o.status === 200).length >= 20,
        '20 verified uploads',
      );
      const killedAt = performance.now();
      await s3.kill();
      await load.until(
        (outcomes) => outcomes.filter((o) => o.startedAt > killedAt && o.status === 503).length >= 20,
        '20 answers 503 while the store is down',
      );
      const readiness = await fetch(`${baseUrl}/readyz`);
      assert.equal(readiness.status, 503);
      assert.match((await readiness.json()).message, /blob store/);
      await s3.start();
      const recoveredAt = await waitUntilReady(baseUrl);
      await load.until(
        (outcomes) =>
          outcomes.filter((o) => o.startedAt > recoveredAt && o.name === 'verify' && o.status === 200)
            .length >= 20,
        '20 verified uploads after the store came back',
      );
      assertCleanOutage({ outcomes: await load.stop(), coffer, busyTimeoutMs: 5000, recoveredAt });
    } finally {
      await load.stop();
    }

    // Nothing acknowledged was lost: every upload answered 200 verifies (if it was not yet)
    // and downloads with its bytes; the file verified before the outage too.
    for (const [fileId, upload] of stored) {
      if (!upload.verified) {
        const verify = await client.call('POST', `/api/v1/file/${fileId}/verify`, {
          token: owner.token,
          body: { etag: upload.etag },
        });
        assert.equal(verify.status, 200, `upload ${fileId} was answered 200: ${verify.text}`);
      }
      const got = await client.call('GET', `/api/v1/file/${fileId}`, { token: owner.token });
      const bytes = Buffer.from(await (await fetch(got.body.url)).arrayBuffer());
      assert.equal(sha256(bytes), upload.sha, `the bytes of ${fileId}`);
    }
    const got = await client.call('GET', `/api/v1/file/${before._id}`, { token: owner.token });
    assert.equal(await (await fetch(got.body.url)).text(), 'verified before the outage');
  });
});
