import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import sharp from 'sharp';
import { FileWithLinkSchema } from '../../src/http/wire/schemas.ts';
import type { ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/**
 * GET /api/v1/file/:fileId writes its answer from the record's kept JSON and the link's two
 * fields (src/http/wire/json-with-link.ts), not through the route's serializer: each answer
 * here must hold exactly what FileWithLinkSchema's serializer writes for the same values, and
 * must follow the record as it changes (a share, a customData change, a version).
 */
describe('GET /api/v1/file/:fileId answers the schema’s JSON', () => {
  let server: TestServer;
  const serialize = SerializerSelector()({}, {})({
    schema: FileWithLinkSchema,
    ...{ method: 'GET', url: '/api/v1/file/:fileId', httpStatus: '200' },
  }) as (value: unknown) => string;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  /** The answer, checked against the schema's own serializer of what it says. */
  const get = async (token: string, fileId: string, query = ''): Promise<ApiResponse> => {
    const answer = await server.client.call('GET', `/api/v1/file/${fileId}${query}`, { token });
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
    // The same members with the same values as the schema's serializer writes (it orders the
    // link's two fields before the record's optional ones; JSON members have no order).
    assert.deepEqual(answer.body, JSON.parse(serialize(answer.body)), 'nothing the schema would drop');
    assert.deepEqual(Object.keys(answer.body).sort(), Object.keys(JSON.parse(serialize(answer.body))).sort());
    assert.equal(Number(answer.headers.get('content-length')), Buffer.byteLength(answer.text));
    return answer;
  };

  it('for a kept record read again, with customData that needs escaping, and after it changes', async () => {
    const owner = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'notes/ü "quoted" </script>.txt', 'x');
    const customData = { title: 'a "title" with \\ and \u2028 and émoji 📁', nested: { n: 1.5, ok: true } };
    const patched = await server.client.call('PATCH', `/api/v1/file/${file._id}`, {
      token: owner.token,
      body: { customData },
    });
    assert.equal(patched.status, 200, patched.text);
    const first = await get(owner.token, file._id);
    const again = await get(owner.token, file._id, '?expiresInSeconds=60');
    assert.deepEqual(first.body.customData, customData);
    assert.deepEqual(
      { ...again.body, url: undefined, expiresAt: undefined },
      {
        ...first.body,
        url: undefined,
        expiresAt: undefined,
      },
    );
    assert.ok(again.body.expiresAt < first.body.expiresAt, 'each answer has its own link');
    assert.equal(await fetch(again.body.url).then((response) => response.text()), 'x');

    await server.client.call('PATCH', `/api/v1/file/${file._id}`, {
      token: owner.token,
      body: { customData: { title: 'changed' } },
    });
    const changed = await get(owner.token, file._id);
    assert.deepEqual(
      changed.body.customData,
      { title: 'changed' },
      'a changed record is answered as it is now',
    );
  });

  it('for a reader through folder shares, which come and go at once', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'albums/2026/trip/a.txt', 'a');
    const share = (verb: 'share' | 'unshare', body: Record<string, string>) =>
      server.client.call('POST', `/api/v1/folders/${verb}`, { token: owner.token, body });
    assert.equal((await share('share', { path: 'albums/', role: 'family' })).status, 200);
    assert.equal((await share('share', { path: 'albums/2026/trip/', user: reader.userId })).status, 200);
    const through = await get(reader.token, file._id);
    assert.deepEqual(
      through.body.folderAcl.map((entry: { path: string }) => entry.path),
      ['albums/', 'albums/2026/trip/'],
    );
    await get(reader.token, file._id); // from the kept JSON
    assert.equal((await share('unshare', { path: 'albums/2026/trip/', user: reader.userId })).status, 200);
    const denied = await server.client.call('GET', `/api/v1/file/${file._id}`, { token: reader.token });
    assert.equal(denied.status, 403, 'an unshare acts at once');
    const byOwner = await get(owner.token, file._id);
    assert.deepEqual(
      byOwner.body.folderAcl.map((entry: { path: string }) => entry.path),
      ['albums/'],
    );
  });

  it('for an older version, and for a rendition', async () => {
    const owner = await server.client.signup();
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#369' } })
      .png()
      .toBuffer();
    const file = await server.client.uploadFile(owner.token, 'pictures/one.png', png, {
      contentType: 'image/png',
    });
    const requested = await server.client.call('POST', `/api/v1/file/${file._id}/versions`, {
      token: owner.token,
      body: {},
    });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: png,
      headers: { 'content-type': 'image/png' },
    });
    assert.equal(put.status, 200);
    const verified = await server.client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token: owner.token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    const older = await get(owner.token, file._id, `?versionId=${file.versionId}`);
    assert.equal(older.body.versionId, file.versionId);
    const current = await get(owner.token, file._id);
    assert.equal(current.body.versionId, requested.body.versionId);
    const rendition = await get(owner.token, file._id, '?width=16&format=webp');
    const bytes = await fetch(rendition.body.url);
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), 'image/webp');
  });
});
