import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BlobCollector } from '../../src/domain/files/blob-collector.ts';
import { bodyOf } from '../support/byte-streams.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/**
 * The blob collector over the server's real stores (SQLite + disk, or PostgreSQL + S3), with
 * an injected clock to step past the grace period: what records name stays, strays go, and
 * passes running side by side (several nodes) are safe.
 */
describe('blob collection against the records', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
  });
  after(() => server.stop());

  const collectorAt = (now: Date) =>
    new BlobCollector({
      files: server.services.repositories.files,
      blobs: server.services.blobs,
      sweeper: server.services.blobs,
      clock: { now: () => now },
      graceSeconds: server.services.config.gcGraceSeconds,
    });
  const put = async (filePath: string, text: string) => {
    const requested = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    const response = await fetch(requested.body.putFileUrl, { method: 'PUT', body: text });
    assert.equal(response.status, 200);
    return { fileId: requested.body.fileId as string, etag: response.headers.get('etag') };
  };
  const verify = (fileId: string, etag: string | null) =>
    server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });
  const download = async (fileId: string) => {
    const file = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    return (await fetch(file.body.url)).text();
  };

  it('removes unreferenced versions only past the grace period; concurrent passes are safe', async () => {
    const { projectId } = server.credentials;
    const verified = await put('verified.txt', 'verified bytes');
    assert.equal((await verify(verified.fileId, verified.etag)).status, 200);
    const pending = await put('pending.txt', 'pending bytes');
    const strays = [];
    for (const fileId of [verified.fileId, pending.fileId, 'fGoneRecord00000000000']) {
      const key = `${projectId}/${fileId}`;
      const stored = await server.services.blobs.put(key, bodyOf(`stray of ${fileId}`), {
        contentType: 'a/b',
        maxBytes: 1024,
      });
      strays.push(`${key}.${stored.version}`);
    }
    const strayNames = (report: { items: { kind: string; name: string }[] }) =>
      report.items
        .filter((item) => item.kind === 'version')
        .map((item) => item.name)
        .sort();

    // Within the grace period nothing is touched: a put that has not committed looks the same.
    const now = await collectorAt(new Date()).collect({ apply: true });
    assert.deepEqual(strayNames(now), []);
    assert.equal(now.removed, 0);

    const later = new Date(Date.now() + (server.services.config.gcGraceSeconds + 60) * 1000);
    const dryRun = await collectorAt(later).collect({ apply: false });
    assert.deepEqual(strayNames(dryRun), strays.sort());
    const passes = await Promise.all([1, 2, 3].map(() => collectorAt(later).collect({ apply: true })));
    for (const pass of passes) assert.equal(pass.failed, 0);
    assert.deepEqual(strayNames(await collectorAt(later).collect({ apply: false })), []);

    assert.equal(await download(verified.fileId), 'verified bytes');
    assert.equal((await verify(pending.fileId, pending.etag)).status, 200);
    assert.equal(await download(pending.fileId), 'pending bytes');
  });
});
