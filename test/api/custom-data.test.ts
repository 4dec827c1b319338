import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Issue 10, item 8: customData on the upload request and on PATCH /api/v1/file/:id. */
describe('customData', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  const patch = (token: string, id: string, body: unknown) =>
    server.client.call('PATCH', `/api/v1/file/${id}`, { token, body });

  it('is taken by the upload request and returned by verify, get and list', async () => {
    const { token } = await server.client.signup();
    const customData = { album: 'Summer', tags: ['a', 'b'], rating: 4, nested: { ok: true, none: null } };
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'custom/one.txt', customData },
    });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'hello' });
    const verified = await server.client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.deepEqual(verified.body.customData, customData);
    const got = await server.client.call('GET', `/api/v1/file/${requested.body.fileId}`, { token });
    assert.deepEqual(got.body.customData, customData);
    const listed = await server.client.call('GET', '/api/v1/file?filePath=custom/', { token });
    assert.deepEqual(listed.body.docs[0].customData, customData);
  });

  it('is absent from records that never had any', async () => {
    const { token } = await server.client.signup();
    const record = await server.client.uploadFile(token, 'plain.txt', 'x');
    assert.equal('customData' in record, false);
  });

  it('PATCH replaces it (creator or admin), answers the record with __v bumped; readers may not', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const record = await server.client.uploadFile(owner.token, 'patched.txt', 'x');
    await server.client.call('POST', `/api/v1/file/${record._id}/acl/user/${reader.userId}`, {
      token: owner.token,
    });
    const before = await server.client.call('GET', `/api/v1/file/${record._id}`, { token: owner.token });
    const patched = await patch(owner.token, record._id, { customData: { v: 1 } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.customData, { v: 1 });
    assert.equal(patched.body.__v, before.body.__v + 1);
    assert.equal(patched.body.filePath, 'patched.txt');
    assert.notEqual(patched.body.__updatedAt, undefined);
    const replaced = await patch(owner.token, record._id, { customData: { w: 2 } });
    assert.deepEqual(replaced.body.customData, { w: 2 }, 'a PATCH replaces the object whole');
    const denied = await patch(reader.token, record._id, { customData: { v: 3 } });
    assert.equal(denied.body.code, 'ACCESS_DENIED');
    const stranger = await server.client.signup();
    assert.equal((await patch(stranger.token, record._id, { customData: {} })).body.code, 'ACCESS_DENIED');
    const missing = await patch(owner.token, 'AAAAAAAAAAAAAAAAAAAAAA', { customData: {} });
    assert.equal(missing.body.code, 'FILE_NOT_FOUND');
    const got = await server.client.call('GET', `/api/v1/file/${record._id}`, { token: reader.token });
    assert.deepEqual(got.body.customData, { w: 2 });
  });

  it('refuses anything but a small, plain JSON object with 400 VALIDATION_FAILED, changing nothing', async () => {
    const { token } = await server.client.signup();
    const record = await server.client.uploadFile(token, 'strict.txt', 'x');
    let deep: unknown = 1;
    for (let level = 0; level < 17; level++) deep = { d: deep };
    let deepEnough: unknown = 1;
    for (let level = 0; level < 16; level++) deepEnough = { d: deepEnough };
    const bad: Array<[string, string]> = [
      ['an array', JSON.stringify({ customData: [1, 2] })],
      ['null', JSON.stringify({ customData: null })],
      ['a string', JSON.stringify({ customData: 'x' })],
      ['a number', JSON.stringify({ customData: 3 })],
      ['missing', JSON.stringify({})],
      ['over 4 KiB', JSON.stringify({ customData: { big: 'x'.repeat(4096) } })],
      ['over 4 KiB in UTF-8 bytes', JSON.stringify({ customData: { big: 'é'.repeat(2045) } })],
      ['17 levels', JSON.stringify({ customData: deep })],
      ['__proto__', '{"customData": {"__proto__": {"polluted": true}}}'],
      ['nested __proto__', '{"customData": {"a": [{"__proto__": {"polluted": true}}]}}'],
      ['constructor', '{"customData": {"constructor": {"prototype": {"polluted": true}}}}'],
      ['prototype', '{"customData": {"prototype": 1}}'],
    ];
    for (const [name, body] of bad) {
      const response = await server.client.call('PATCH', `/api/v1/file/${record._id}`, { token, body });
      assert.equal(response.status, 400, `${name}: ${response.text}`);
      assert.equal(response.body.code, 'VALIDATION_FAILED', name);
      const upload = await server.client.call('POST', '/api/v1/file', {
        token,
        body: body
          .replace('{"customData"', '{"filePath": "refused.txt", "customData"')
          .replace(/^\{\}$/, '{"filePath": "refused.txt", "customData": false}'),
      });
      assert.equal(upload.body.code, 'VALIDATION_FAILED', `upload request with ${name}`);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const unchanged = await server.client.call('GET', `/api/v1/file/${record._id}`, { token });
    assert.equal(unchanged.body.__v, record.__v);
    assert.equal('customData' in unchanged.body, false);
    const fits = { big: 'x'.repeat(4096 - '{"big":""}'.length) };
    assert.equal((await patch(token, record._id, { customData: fits })).status, 200, 'exactly 4096 bytes');
    assert.equal((await patch(token, record._id, { customData: deepEnough })).status, 200, '16 levels');
    assert.equal((await patch(token, record._id, { customData: {} })).body.customData !== undefined, true);
  });
});
