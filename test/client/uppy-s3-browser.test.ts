import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetBucketCorsCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import type { Browser } from 'playwright-core';
import { parseS3StorageUrl } from '../../src/blob-stores/s3-storage-url.ts';
import { skipWithoutChromium } from '../support/console-browser.ts';
import type { TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';
import { addAndUpload, assertReadmeHolds, startUppyStage } from './uppy-example-site.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** The README's Uppy + S3 example, as the page runs it (the test reads it from this one place). */
const example = path.join(root, 'examples', 'uppy', 'coffer-uppy-s3.js');
const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');
const onS3 = currentStackName() === 'pg-s3';

/** The bucket's CORS for the app's origin (what the README tells operators to set), beside any rule there. */
async function allowOriginOnBucket(server: TestServer, origin: string): Promise<void> {
  const location = parseS3StorageUrl(server.services.config.storageUrl);
  const s3 = new S3Client({ region: location.region, endpoint: location.endpoint, forcePathStyle: true });
  try {
    const existing = await s3
      .send(new GetBucketCorsCommand({ Bucket: location.bucket }))
      .then((answer) => answer.CORSRules ?? [])
      .catch(() => []);
    const rule = {
      AllowedOrigins: [origin],
      AllowedMethods: ['PUT', 'POST', 'GET', 'DELETE'],
      AllowedHeaders: ['*'],
      ExposeHeaders: ['ETag'],
      MaxAgeSeconds: 600,
    };
    await s3.send(
      new PutBucketCorsCommand({
        Bucket: location.bucket,
        CORSConfiguration: { CORSRules: [...existing, rule] },
      }),
    );
  } finally {
    s3.destroy();
  }
}

type Outcome = { failed: string[]; meta: { id: unknown; verified: unknown }[] };

/**
 * Issue 43 item 4: Uppy from npm (Dashboard + `@uppy/aws-s3` v6) sends a file's bytes straight
 * to S3, Coffer signing each request of the file's upload, and the file comes out verified and
 * readable with nothing but the README's example.
 */
describe('Uppy (Dashboard + AwsS3) in headless Chromium, the README example', {
  skip: !onS3 ? 'needs S3: runs in the PostgreSQL + S3 pass' : skipWithoutChromium,
}, () => {
  let stage: Awaited<ReturnType<typeof startUppyStage>>;
  let server: TestServer;
  let site: Awaited<ReturnType<typeof startUppyStage>>['site'];
  let browser: Browser;
  before(async () => {
    stage = await startUppyStage(example);
    ({ server, site, browser } = stage);
    await allowOriginOnBucket(server, site.origin);
  });
  after(() => stage?.close());

  it('the README shows the example as it is', () => assertReadmeHolds(example));

  /** Adds the file to the Dashboard (with extra meta, if any), uploads, and answers what `complete` said. */
  const upload = async (
    token: string,
    appId: string,
    file: { name: string; content: Buffer; meta?: Record<string, string> },
  ) => {
    const page = await browser.newPage();
    const sentToCoffer: string[] = [];
    const sentElsewhere: string[] = [];
    page.on('request', (request) => {
      const line = `${request.method()} ${request.url()}`;
      (request.url().startsWith(server.baseUrl) ? sentToCoffer : sentElsewhere).push(line);
    });
    try {
      await page.goto(`${site.origin}/`);
      await page.evaluate(
        async ({ baseUrl, appId, token, meta }) => {
          const exampleModule = '/coffer-uppy-s3.js'; // served by the app site above
          const { cofferUppyS3 } = await import(exampleModule);
          const uppy = cofferUppyS3({ target: '#uppy', baseUrl, appId, token });
          if (meta) uppy.on('file-added', (added: { id: string }) => uppy.setFileMeta(added.id, meta));
          const done = new Promise((resolve) => uppy.on('complete', resolve));
          Object.assign(window, { uppy, done });
        },
        { baseUrl: server.baseUrl, appId, token, meta: file.meta },
      );
      await addAndUpload(page, { name: file.name, content: file.content });
      const outcome = await page.evaluate(async (): Promise<Outcome> => {
        type Done = { successful: { meta: Record<string, unknown> }[]; failed: { error: string }[] };
        const result = (await (window as unknown as { done: Promise<Done> }).done) as Done;
        return {
          failed: result.failed.map((failed) => String(failed.error)),
          meta: result.successful.map((done) => ({
            id: done.meta.cofferFileId,
            verified: done.meta.verified,
          })),
        };
      });
      return { outcome, sentToCoffer, sentElsewhere };
    } finally {
      await page.close();
    }
  };

  // A bound, not a measure: an upload that never completes fails the test instead of hanging it.
  it('a file of three parts goes to S3 part by part, and Coffer completes and verifies it', {
    timeout: 180_000,
  }, async () => {
    const app = await server.createProject('uppy-s3-app', [site.origin]);
    const { token } = await app.signup();
    const content = randomBytes(2 * 5 * MiB + 123_456);
    const sent = await upload(token, app.credentials.appId, {
      name: 'video.bin',
      content,
      meta: { checksumSha256: sha256(content) },
    });
    assert.deepEqual(sent.outcome.failed, []);
    assert.equal(sent.outcome.meta.length, 1);
    assert.equal(sent.outcome.meta[0]?.verified, true);
    // The bytes never pass through Coffer: the parts are PUT elsewhere (S3), none to Coffer.
    assert.deepEqual(
      sent.sentToCoffer.filter((line) => line.startsWith('PUT ')),
      [],
    );
    assert.equal(
      sent.sentElsewhere.filter((line) => line.startsWith('PUT ') && line.includes('partNumber=')).length,
      3,
    );
    const fileId = String(sent.outcome.meta[0]?.id);
    const file = await app.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(file.status, 200, file.text);
    assert.equal(file.body.verified, true);
    assert.equal(file.body.filePath, 'uploads/video.bin');
    assert.ok(
      Buffer.from(await (await fetch(file.body.url)).arrayBuffer()).equals(content),
      'the exact bytes',
    );
  });

  it('a small file (one part) is verified and readable too', { timeout: 120_000 }, async () => {
    const app = await server.createProject('uppy-s3-small', [site.origin]);
    const { token } = await app.signup();
    const content = Buffer.from('plain text, nothing a scanner minds\n'.repeat(100));
    const sent = await upload(token, app.credentials.appId, { name: 'notes.txt', content });
    assert.deepEqual(sent.outcome.failed, []);
    const fileId = String(sent.outcome.meta[0]?.id);
    const file = await app.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(file.body.verified, true);
    assert.ok(Buffer.from(await (await fetch(file.body.url)).arrayBuffer()).equals(content));
  });

  it('a completion Coffer refuses (a declared checksum that does not match) is an upload-error, nothing readable', {
    timeout: 120_000,
  }, async () => {
    const app = await server.createProject('uppy-s3-refused', [site.origin]);
    const { token } = await app.signup();
    const content = randomBytes(64 * 1024);
    const sent = await upload(token, app.credentials.appId, {
      name: 'wrong.bin',
      content,
      meta: { checksumSha256: sha256(Buffer.from('other bytes')) },
    });
    assert.equal(sent.outcome.meta.length, 0);
    assert.equal(sent.outcome.failed.length, 1);
    assert.match(sent.outcome.failed[0]!, /S3 returned 4\d\d/);
    const signed = sent.sentToCoffer.map(
      (line) => /\/api\/v1\/file\/([^/]+)\/multipart\/sign$/.exec(line)?.[1],
    );
    const fileId = signed.find((id) => id !== undefined);
    assert.ok(fileId, 'the example signed requests for a Coffer file');
    const file = await app.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.notEqual(file.body.verified, true, file.text);
    assert.equal(file.body.url, undefined, 'no download link for an unverified file');
  });
});
