import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { CofferProcess } from '../support/coffer-process.ts';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { runTusUpload } from '../support/tus-upload.ts';
import { restartAndHold, toRounds, useCrashTarget } from './crash-target.ts';

const rounds = toRounds(3);
const KiB = 1024;
const MiB = 1024 * KiB;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');
const tus = { 'tus-resumable': '1.0.0' };

/** The upload's status on a server: its offset, and its ETag once committed. */
async function statusOf(url: string) {
  const head = await fetch(url, { method: 'HEAD', headers: tus });
  assert.equal(head.status, 200, `HEAD ${head.status}`);
  return { offset: Number(head.headers.get('upload-offset')), etag: head.headers.get('etag') ?? undefined };
}

/**
 * The ETag of a complete upload. A kill between its last byte and its commit leaves it to a
 * HEAD to commit (the dead request's lease is free at once since issue 35): asked until then.
 */
async function waitForEtag(url: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { etag } = await statusOf(url);
    if (etag) return etag;
    if (Date.now() > deadline) throw new Error('the complete upload was never committed');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Issue 20: kill -9 during a PATCH, restart, and the client resumes from durable bytes. */
describe(`kill -9 during resumable uploads (${currentStackName()} stack)`, () => {
  const seed = chooseSeed('kill -9 during resumable uploads');
  const target = useCrashTarget();

  it(`${rounds} rounds: HEAD reports an offset whose bytes are all durable, and the resumed file verifies`, {
    timeout: rounds * 180_000,
  }, async (t) => {
    for (let round = 0; round < rounds; round++) {
      const random = seededRandom(seed + round);
      const context = `round ${round} (seed ${seed})`;
      const content = randomBytes(random.int(3 * MiB, 12 * MiB));
      const { coffer, token } = target;
      const requested = await coffer.client.call('POST', '/api/v1/file', {
        token,
        body: { filePath: `resumable/crash-${round}.bin`, contentLength: content.length, resumable: true },
      });
      assert.equal(requested.status, 200, requested.text);
      const { fileId, resumableUrl } = requested.body as { fileId: string; resumableUrl: string };
      // The kill lands while a chunk streams: after a seeded number of bytes went out.
      const killAt = random.int(64 * KiB, content.length - 1);
      let killing: Promise<void> | undefined;
      const first = await runTusUpload(content, {
        uploadUrl: resumableUrl,
        chunkSize: random.int(256 * KiB, 3 * MiB),
        onProgress: (sent) => {
          if (sent >= killAt) killing ??= coffer.kill();
        },
      });
      await (killing ?? coffer.kill());
      const sent = first.ok ? 'all' : 'part';
      await restartAndHold(target, context, async (restarted: CofferProcess) => {
        const url = resumableUrl.replace(coffer.baseUrl, restarted.baseUrl);
        const kept = await statusOf(url);
        assert.ok(kept.offset <= content.length, `${context}: offset ${kept.offset}`);
        // Every byte below the offset is durable: the rest sent again makes exactly the file.
        const resumed = await runTusUpload(content, {
          uploadUrl: url,
          chunkSize: 2 * MiB,
          // A lease the killed request held is free at once (issue 35); retries stay for a busy machine.
          retryDelays: [500, 1000, 2000, 4000, 8000, 8000, 8000, 8000],
        });
        assert.ok(resumed.ok, `${context}: ${resumed.ok ? '' : resumed.error}`);
        const etag = resumed.etag ?? (await waitForEtag(url));
        const verified = await restarted.client.call('POST', `/api/v1/file/${fileId}/verify`, {
          token,
          body: { etag },
        });
        assert.equal(verified.status, 200, `${context}: ${verified.text}`);
        assert.equal(verified.body.meta.ChecksumSHA256, sha256(content), `${context}: the bytes`);
        t.diagnostic(
          `${context}: ${content.length} bytes, killed after ${killAt} sent (${sent}), kept ${kept.offset}`,
        );
      });
    }
  });
});
