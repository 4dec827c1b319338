import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

/** The whole flow of the specification, against `coffer serve` started through the CLI. */
describe('end to end: the seed flow against coffer serve', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer.stop());

  for (const style of ['multipart', 'raw'] as const) {
    it(`request → PUT (${style}) → verify → share with user and role → link → download`, async () => {
      const api = coffer.client;
      const alice = await api.signup(`alice-${style}@example.com`);
      const bob = await api.signup(`bob-${style}@example.com`);
      const carol = await api.signup(`carol-${style}@example.com`);
      const stranger = await api.signup(`stranger-${style}@example.com`);
      // An admin command while the server runs: carol joins the role the file is shared with.
      const setRole = await runCli(
        [
          'user',
          'set-role',
          '--data-dir',
          coffer.dataDir,
          '--project',
          coffer.credentials.projectId,
          carol.userId,
          'editors',
        ],
        coffer.env,
      );
      assert.equal(setRole.code, 0, setRole.stderr);

      const login = await api.call('POST', '/api/v1/auth/login', {
        body: { email: alice.email, password: alice.password },
        headers: { accept: 'application/json' },
      });
      assert.equal(login.status, 200);
      const token = login.body.token as string;

      const requested = await api.call('POST', '/api/v1/file', {
        token,
        body: { filePath: `${style}/report.txt`, permissionScope: 'user' },
      });
      assert.equal(requested.status, 200, requested.text);
      const { fileId, putFileUrl, postVerifyUploadUrl, expiresAt } = requested.body;
      assert.match(fileId, /^[A-Za-z0-9_-]{22}$/);
      assert.ok(postVerifyUploadUrl.endsWith(`/api/v1/file/${fileId}/verify`));
      assert.ok(Number.isInteger(expiresAt) && expiresAt > Date.now() / 1000);

      const content = `Quarterly numbers, sent as ${style}\n`;
      let put: Response;
      if (style === 'multipart') {
        const form = new FormData();
        form.append('data', new Blob([content], { type: 'text/plain' }), 'report.txt');
        put = await fetch(putFileUrl, { method: 'PUT', body: form });
      } else {
        put = await fetch(putFileUrl, {
          method: 'PUT',
          body: content,
          headers: { 'content-type': 'text/plain' },
        });
      }
      assert.equal(put.status, 200);
      const etag = put.headers.get('etag');
      assert.match(etag ?? '', /^"[0-9a-f]{32}"$/);

      const verified = await api.call('POST', postVerifyUploadUrl.slice(coffer.baseUrl.length), {
        token,
        body: { etag },
      });
      assert.equal(verified.status, 200, verified.text);
      const record = verified.body;
      assert.equal(record._id, fileId);
      assert.equal(record.verified, true);
      assert.equal(record.etag, etag);
      assert.equal(record.key, `${coffer.credentials.projectId}/${alice.userId}/${style}/report.txt`);
      assert.equal(record.creator, alice.userId);
      assert.equal(record.project, coffer.credentials.projectId);
      assert.equal(record.permissionScope, 'user');
      assert.deepEqual(record.meta, {
        LastModified: record.meta.LastModified,
        ContentLength: String(Buffer.byteLength(content)),
        ContentType: 'text/plain',
        ChecksumSHA256: createHash('sha256').update(content).digest('base64'),
      });
      assert.deepEqual(record.acl, [{ scope: 'user', identifier: alice.userId }]);
      assert.equal(record.url, undefined);
      assert.equal(record.__v, 1);

      const denied = await api.call('GET', `/api/v1/file/${fileId}`, { token: bob.token });
      assert.equal(denied.body.code, 'ACCESS_DENIED');

      // Share calls: POST, empty body, no Content-Type (as the original SDKs send them).
      const withBob = await api.call('POST', `/api/v1/file/${fileId}/acl/user/${bob.userId}`, { token });
      assert.equal(withBob.status, 200, withBob.text);
      assert.deepEqual(withBob.body.acl, [...record.acl, { scope: 'user', identifier: bob.userId }]);
      assert.equal(withBob.body.__v, 2);
      const withRole = await api.call('POST', `/api/v1/file/${fileId}/acl/role/editors`, { token });
      assert.deepEqual(withRole.body.acl.at(-1), { scope: 'role', identifier: 'editors' });
      assert.equal(withRole.body.__v, 3);
      assert.ok(withRole.body.__updatedAt >= record.__updatedAt);
      assert.equal(withRole.body.__createdAt, record.__createdAt);

      for (const reader of [alice.token, bob.token, carol.token]) {
        const got = await api.call('GET', `/api/v1/file/${fileId}?expiresInSeconds=120`, { token: reader });
        assert.equal(got.status, 200, got.text);
        assert.equal(got.body.expiresAt - Math.floor(Date.now() / 1000) <= 120, true);
        const download = await fetch(got.body.url);
        assert.equal(download.status, 200);
        assert.equal(await download.text(), content);
        assert.equal(download.headers.get('etag'), etag);
      }
      assert.equal(
        (await api.call('GET', `/api/v1/file/${fileId}`, { token: stranger.token })).body.code,
        'ACCESS_DENIED',
      );
    });
  }
});
