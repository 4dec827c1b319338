import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, type UploadProgress } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const MiB = 1024 * 1024;
const bytesOf = (length: number) =>
  new Uint8Array(length).map((_, index) => (index * 7 + (index >> 10)) & 255);

/** What happened, in order: progress events, and the upload's answer carrying its ETag. */
type Timeline = Array<{ progress: UploadProgress } | { answered: string }>;

/** A fetch that notes in `timeline` each data-plane answer with an ETag (the upload's end). */
function noteAnswers(timeline: Timeline): typeof fetch {
  return async (input, init) => {
    const answer = await fetch(input, init);
    const etag = answer.headers.get('etag');
    if (new URL(String(input)).pathname.startsWith('/blob/') && etag) timeline.push({ answered: etag });
    return answer;
  };
}

/**
 * Issue 35: the client's progress reaches 100 % only when the upload is done. Once every byte
 * has gone out the server still stores, hashes and commits them: the phase is `finishing`,
 * and `loadedBytes` stays under the total until the answer with the ETag.
 */
describe('@coffer/client upload progress', () => {
  let server: TestServer;
  let users = 0;
  const newClient = async (fetchThrough?: typeof fetch) => {
    const client = new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
      ...(fetchThrough && { fetch: fetchThrough }),
    });
    await client.signup({ email: `progress-${users++}@client.example`, password: 'correct horse' });
    return client;
  };

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  for (const [name, sizeBytes] of [
    ['resumable (tus)', 3 * MiB + 17],
    ['one PUT', 300_000],
  ] as const) {
    it(`${name}: "finishing", never 100 %, until the answer with the ETag`, async () => {
      const timeline: Timeline = [];
      const client = await newClient(noteAnswers(timeline));
      const content = bytesOf(sizeBytes);
      await client.upload(`progress/${users}.bin`, content, {
        resumableThresholdBytes: MiB,
        chunkSizeBytes: MiB,
        onProgress: (progress) => timeline.push({ progress }),
      });
      const answeredAt = timeline.findIndex((entry) => 'answered' in entry);
      assert.ok(answeredAt > 0, 'the upload was answered with an ETag');
      const before = timeline
        .slice(0, answeredAt)
        .flatMap((entry) => ('progress' in entry ? [entry.progress] : []));
      assert.ok(before.length > 1, 'progress while the bytes went');
      for (const progress of before) {
        assert.ok(
          progress.loadedBytes < sizeBytes,
          `${progress.loadedBytes} of ${sizeBytes} before the answer`,
        );
        assert.notEqual(progress.phase, 'done');
      }
      assert.equal(before.at(-1)?.phase, 'finishing', 'every byte sent: finishing');
      const last = timeline.at(-1);
      assert.ok(last && 'progress' in last, 'the last event is progress');
      assert.deepEqual(last.progress, { loadedBytes: sizeBytes, totalBytes: sizeBytes, phase: 'done' });
    });
  }

  it('a 423 waits for its Retry-After (the lease of another node lapses), within the retry budget', async () => {
    const client = await newClient();
    const content = bytesOf(2 * MiB);
    const requested = await server.client.call('POST', '/api/v1/file', {
      token: client.session!.token,
      body: { filePath: 'progress/locked.bin', contentLength: content.length, resumable: true },
    });
    assert.equal(requested.status, 200, requested.text);
    const { fileId, resumableUrl } = requested.body as { fileId: string; resumableUrl: string };
    const uploadId = new URL(resumableUrl).pathname.split('/').pop()!;
    // Another node's writer holds the upload for 3 s more; it cannot be judged dead from here.
    const lease = { owner: 'elsewhere', until: new Date(Date.now() + 3000), holder: 'another-node/1/1' };
    assert.ok(await server.services.repositories.resumableUploads.takeLease(uploadId, lease, new Date()));
    // One retry: it must wait until the lease can be taken (Retry-After), not a second.
    const file = await client.resumeUpload({ fileId, resumableUrl }, content, {
      retries: 1,
      chunkSizeBytes: MiB,
    });
    assert.equal(file.verified, true);
    assert.equal(file.meta.ContentLength, String(content.length));
  });
});
