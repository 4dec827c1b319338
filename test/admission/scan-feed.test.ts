import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../support/api-client.ts';
import { type Clamd, clamdMissing, eicarBytes, startClamd } from '../support/clamd.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/**
 * Issue 42: a PUT's bytes are pushed to clamd as they pass (ScanTap → ClamdScanner's feed),
 * one scan at a time here (COFFER_SCAN_CONCURRENCY=1). Every chunk reaches the scanner in
 * order, whatever its size; a body cut short gives its slot back; uploads waiting for the
 * slot are served, never dropped.
 */
describe('malware scanning: the feed from a PUT to clamd', { skip: clamdMissing ?? false }, () => {
  let clamd: Clamd;
  let server: TestServer;
  let client: ApiClient;
  let token: string;
  before(async () => {
    clamd = await startClamd({ maxBytes: 32 * 1024 * 1024 });
    server = await startTestServer(
      {},
      {
        COFFER_SCAN_URL: clamd.url,
        COFFER_SCAN_MAX_BYTES: String(clamd.maxBytes),
        COFFER_SCAN_CONCURRENCY: '1',
      },
    );
    client = await server.createProject('scan-feed');
    token = (await client.signup()).token;
  });
  after(async () => {
    await server?.stop();
    await clamd?.close();
  });

  const requestUpload = async () => {
    const filePath = `feed/${randomBytes(4).toString('hex')}.bin`;
    const requested = await client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    return { fileId: requested.body.fileId as string, url: new URL(requested.body.putFileUrl as string) };
  };

  /** PUTs `parts` as written, one write each (a chunked body), and answers the status and body. */
  const putInParts = (url: URL, parts: Buffer[]) =>
    new Promise<{ status: number; body: { code?: string } }>((resolve, reject) => {
      const put = request(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' } });
      put.on('error', reject);
      put.on('response', (answer) => {
        const received: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => received.push(chunk));
        answer.on('error', reject);
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(received).toString('utf8') || '{}'),
          }),
        );
      });
      for (const part of parts) put.write(part);
      put.end();
    });

  const verifyScan = async (fileId: string) => {
    const record = await server.services.repositories.files.findById(fileId);
    const etag = record?.pendingUpload?.etag ?? '"none"';
    return client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });
  };

  it("EICAR after 3 MiB of chunks of odd sizes, some past INSTREAM's 64 KiB: found", async () => {
    const { url } = await requestUpload();
    const parts = [randomBytes(100_000), randomBytes(1), randomBytes(65_536), randomBytes(200_003)];
    while (parts.reduce((sum, part) => sum + part.length, 0) < 3 * 1024 * 1024)
      parts.push(randomBytes(131_071));
    parts.push(Buffer.concat([randomBytes(10), eicarBytes(), randomBytes(10)]));
    const answer = await putInParts(url, parts);
    assert.equal(answer.status, 422, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'FILE_INFECTED');
  });

  it('the same bytes without EICAR: clean', async () => {
    const { fileId, url } = await requestUpload();
    const parts = [randomBytes(100_000), randomBytes(65_537), randomBytes(3 * 1024 * 1024)];
    const answer = await putInParts(url, parts);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const verified = await verifyScan(fileId);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.scan.result, 'clean');
  });

  it('a PUT cut short mid-body frees the one scan slot: the next upload is scanned', async () => {
    const { url } = await requestUpload();
    const cut = request(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(4 * 1024 * 1024) },
    });
    cut.on('error', () => {});
    cut.write(randomBytes(512 * 1024));
    // The server has begun reading (and scanning) the body before the connection goes.
    await new Promise<void>((resolve) => cut.write(randomBytes(512 * 1024), () => resolve()));
    cut.destroy();
    const { fileId, url: next } = await requestUpload();
    const answer = await putInParts(next, [randomBytes(300_000)]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const verified = await verifyScan(fileId);
    assert.equal(verified.body.meta.scan.result, 'clean', verified.text);
  });

  it('four PUTs at once with one slot: each waits its turn, each gets its own verdict', async () => {
    const uploads = await Promise.all([0, 1, 2, 3].map(() => requestUpload()));
    const answers = await Promise.all(
      uploads.map(({ url }, i) =>
        putInParts(
          url,
          i === 2 ? [randomBytes(700_000), eicarBytes()] : [randomBytes(700_000), randomBytes(5)],
        ),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 422, 200],
    );
    for (const i of [0, 1, 3]) {
      const verified = await verifyScan(uploads[i]!.fileId);
      assert.equal(verified.body.meta.scan.result, 'clean', verified.text);
    }
  });
});
