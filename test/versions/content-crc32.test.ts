import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { computeStoredCrc32 } from '../../src/domain/files/content-crc.ts';
import { toStorageKey } from '../../src/domain/files/storage-key.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { runTusUpload } from '../support/tus-upload.ts';

const MiB = 1024 * 1024;
const tus = { 'tus-resumable': '1.0.0' };
const patch = (url: string, offset: number, body: Buffer, checksum?: string) =>
  fetch(url, {
    method: 'PATCH',
    headers: {
      ...tus,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      ...(checksum && { 'upload-checksum': checksum }),
    },
    body: new Uint8Array(body),
  });

/**
 * Issue 40: every version's CRC-32 is recorded as its bytes are written through Coffer (a ZIP
 * entry's, known before its bytes), and travels with them (copies, restores, the trash).
 */
describe('the CRC-32 recorded at write', () => {
  let server: TestServer;
  let client: ApiClient;
  let token: string;
  before(async () => {
    server = await startTestServer();
    client = await server.createProject('content-crc32');
    token = (await client.signup()).token;
  });
  after(() => server?.stop());

  const recordOf = async (fileId: string) => {
    const file = await server.services.repositories.files.findById(fileId);
    assert.ok(file, `no record ${fileId}`);
    return file;
  };
  const call = (method: string, url: string, body?: unknown) => client.call(method, url, { token, body });
  /** Requests a new version, PUTs `content` to it and verifies it. */
  const putVersion = async (fileId: string, content: Buffer) => {
    const requested = await call('POST', `/api/v1/file/${fileId}/versions`, {});
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: new Uint8Array(content) });
    assert.equal(put.status, 200, await put.text());
    const verified = await call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      etag: put.headers.get('etag'),
    });
    assert.equal(verified.status, 200, verified.text);
    return requested.body.versionId as string;
  };

  it('a PUT of a new file and of a new version; a version restore and a copy keep the bytes’ CRC', async () => {
    const first = randomBytes(300_000);
    const requested = await call('POST', '/api/v1/file', { filePath: 'crc/a.bin' });
    assert.equal(requested.status, 200, requested.text);
    const fileId = requested.body.fileId as string;
    const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: new Uint8Array(first) });
    assert.equal(put.status, 200, await put.text());
    assert.equal((await recordOf(fileId)).pendingUpload?.crc32, crc32(first), 'the pending upload’s');
    const verified = await call('POST', `/api/v1/file/${fileId}/verify`, { etag: put.headers.get('etag') });
    assert.equal(verified.status, 200, verified.text);
    assert.equal((await recordOf(fileId)).contentCrc32, crc32(first), 'the new file’s');

    const second = randomBytes(70_001);
    await putVersion(fileId, second);
    assert.equal((await recordOf(fileId)).contentCrc32, crc32(second), 'the new version’s');
    const [earlier] = await server.services.repositories.versions.list(fileId);
    assert.equal(earlier?.contentCrc32, crc32(first), 'the earlier version keeps its own');

    const restored = await call('POST', `/api/v1/file/${fileId}/versions/${fileId}/restore`);
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await recordOf(fileId)).contentCrc32, crc32(first), 'a restored version’s');

    const copied = await call('POST', `/api/v1/file/${fileId}/copy`, { filePath: 'crc/copy.bin' });
    assert.equal(copied.status, 200, copied.text);
    const copy = await recordOf(copied.body._id);
    assert.equal(copy.contentCrc32, crc32(first), 'a copy’s, answered by the copy');
    assert.equal((await recordOf(copy.id)).contentCrc32, crc32(first));
  });

  it('a trashed file keeps its CRC, and has it back when restored', async () => {
    const content = randomBytes(12_345);
    const file = await client.uploadFile(token, 'crc/trashed.bin', content);
    assert.equal((await call('DELETE', `/api/v1/file/${file._id}`)).status, 204);
    const trashed = await server.services.database.db
      .selectFrom('trashed_files')
      .select('content_crc32')
      .where('id', '=', file._id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(trashed.content_crc32), crc32(content));
    const restored = await call('POST', `/api/v1/trash/${file._id}/restore`);
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await recordOf(file._id)).contentCrc32, crc32(content));
  });

  it('a resumable upload: chunk by chunk, and resumed from the state saved with the offset', async () => {
    const content = randomBytes(3 * MiB + 99);
    const requested = await call('POST', '/api/v1/file', {
      filePath: 'crc/resumed.bin',
      contentLength: content.length,
      resumable: true,
    });
    assert.equal(requested.status, 200, requested.text);
    const { fileId, resumableUrl } = requested.body as { fileId: string; resumableUrl: string };
    const cut = 2 * MiB + 7;
    assert.equal((await patch(resumableUrl, 0, content.subarray(0, cut))).status, 204);
    // A chunk refused for its checksum drops the digest this process kept: the next chunk goes
    // on from the SHA-256 state and CRC saved with the offset, as after a restart.
    const refused = await patch(
      resumableUrl,
      cut,
      content.subarray(cut, cut + 1000),
      'sha1 AAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    assert.equal(refused.status, 460, await refused.text());
    const rest = await patch(resumableUrl, cut, content.subarray(cut));
    assert.equal(rest.status, 204, await rest.text());
    const verified = await call('POST', `/api/v1/file/${fileId}/verify`, { etag: rest.headers.get('etag') });
    assert.equal(verified.status, 200, verified.text);
    assert.equal((await recordOf(fileId)).contentCrc32, crc32(content));
  });

  it('a resumable upload of a new version, by tus-js-client in chunks', async () => {
    const file = await client.uploadFile(token, 'crc/tus-version.bin', 'first');
    const content = randomBytes(MiB + 4321);
    const requested = await call('POST', `/api/v1/file/${file._id}/versions`, {
      resumable: true,
      contentLength: content.length,
    });
    assert.equal(requested.status, 200, requested.text);
    const sent = await runTusUpload(content, { uploadUrl: requested.body.resumableUrl, chunkSize: 300_000 });
    assert.ok(sent.ok, sent.ok ? '' : sent.error.message);
    const verified = await call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      etag: sent.etag,
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal((await recordOf(file._id)).contentCrc32, crc32(content));
  });

  it('computed on first use for a row without one, saved only for the version it was read from', async () => {
    const content = randomBytes(200_000);
    const file = await client.uploadFile(token, 'crc/older.bin', content);
    // A row written before migration 0036 (or a direct upload's): no CRC.
    await server.services.database.db
      .updateTable('files')
      .set({ content_crc32: null })
      .where('id', '=', file._id)
      .execute();
    const older = await recordOf(file._id);
    assert.equal(older.contentCrc32, null);
    const computed = await computeStoredCrc32(server.services.blobs, toStorageKey(older), older.blobVersion!);
    assert.equal(computed, crc32(content));
    // The file is replaced meanwhile: a CRC of the old bytes must not land on the new ones.
    const newer = randomBytes(1000);
    await putVersion(file._id, newer);
    const files = server.services.repositories.files;
    assert.equal(await files.saveContentCrc32(file._id, older.blobVersion!, computed), false);
    assert.equal((await recordOf(file._id)).contentCrc32, crc32(newer), 'the new version’s stays');
    // Saved for the current version, it is the record's from then on.
    const current = await recordOf(file._id);
    await server.services.database.db
      .updateTable('files')
      .set({ content_crc32: null })
      .where('id', '=', file._id)
      .execute();
    const again = await computeStoredCrc32(
      server.services.blobs,
      toStorageKey(current),
      current.blobVersion!,
    );
    assert.equal(await files.saveContentCrc32(file._id, current.blobVersion!, again), true);
    assert.equal((await recordOf(file._id)).contentCrc32, crc32(newer));
  });
});
