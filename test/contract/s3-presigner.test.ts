import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { S3Presigner } from '../../src/blob-stores/s3-presigner.ts';
import { parseS3StorageUrl } from '../../src/blob-stores/s3-storage-url.ts';
import { s3ServersToTest, startRgw } from '../support/rgw-server.ts';
import type { S3TestServer } from '../support/s3-server.ts';

// Issue 25: s3rver's signature check is ours (test/support/sigv4-verifier.ts), so it could share
// a misreading of SigV4 with the presigner: the links are checked by Ceph RGW's too.
const rgw = await startRgw();
after(() => rgw?.stop());
for (const [serverName, startServer] of s3ServersToTest(rgw)) describePresigner(serverName, startServer);

/** Links S3Presigner signs, against a real S3-protocol server that checks SigV4 (test/support). */
function describePresigner(serverName: string, startServer: () => Promise<S3TestServer>): void {
  describe(`S3Presigner links against ${serverName}`, () => {
    let server: S3TestServer;
    let presigner: S3Presigner;
    /** Signed an hour and a half ago, for links that must have expired. */
    let pastPresigner: S3Presigner;
    before(async () => {
      server = await startServer();
      const location = parseS3StorageUrl(server.storageUrl);
      const credentials = async () => ({
        accessKeyId: server.accessKeyId,
        secretAccessKey: server.secretAccessKey,
      });
      presigner = new S3Presigner({ ...location, credentials });
      pastPresigner = new S3Presigner({
        ...location,
        credentials,
        now: () => new Date(Date.now() - 90 * 60_000),
      });
    });
    after(() => server.stop());

    const newKey = () => `presigner/${randomBytes(6).toString('hex')}`;
    const put = (url: string, body: string, contentType: string) =>
      fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });

    it('signs a PUT and a GET the server accepts, serving the response overrides', async () => {
      const key = newKey();
      const putUrl = await presigner.presign({
        method: 'PUT',
        key,
        expiresInSeconds: 60,
        headers: { 'content-type': 'text/plain' },
      });
      const stored = await put(putUrl, 'signed bytes', 'text/plain');
      assert.equal(stored.status, 200, await stored.text());
      const getUrl = await presigner.presign({
        method: 'GET',
        key,
        expiresInSeconds: 60,
        query: {
          'response-content-disposition': `attachment; filename="a b.txt"; filename*=UTF-8''a%20%C3%A9.txt`,
          'response-content-type': 'application/octet-stream',
        },
      });
      const got = await fetch(getUrl);
      assert.equal(got.status, 200);
      assert.equal(await got.text(), 'signed bytes');
      assert.equal(got.headers.get('content-type'), 'application/octet-stream');
      assert.equal(
        got.headers.get('content-disposition'),
        `attachment; filename="a b.txt"; filename*=UTF-8''a%20%C3%A9.txt`,
      );
    });

    it('refuses a tampered or expired GET', async () => {
      const key = newKey();
      await put(
        await presigner.presign({
          method: 'PUT',
          key,
          expiresInSeconds: 60,
          headers: { 'content-type': 'a/b' },
        }),
        'x',
        'a/b',
      );
      const url = await presigner.presign({ method: 'GET', key, expiresInSeconds: 60 });
      assert.equal((await fetch(url)).status, 200);
      const tampered = [
        url.replace(key, `${key}x`), // another object
        url.replace('X-Amz-Expires=60', 'X-Amz-Expires=600'), // a longer life
        url.replace(/X-Amz-Signature=(.)/, (_, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`),
        `${url}&response-content-type=text%2Fhtml`, // a relabelled answer
      ];
      for (const link of tampered) assert.equal((await fetch(link)).status, 403, link);
      const expired = await pastPresigner.presign({ method: 'GET', key, expiresInSeconds: 3600 });
      assert.equal((await fetch(expired)).status, 403);
    });

    it('refuses a PUT with another content type, to another key, or after it expired', async () => {
      const key = newKey();
      const url = await presigner.presign({
        method: 'PUT',
        key,
        expiresInSeconds: 60,
        headers: { 'content-type': 'image/png' },
      });
      assert.equal((await put(url, 'html', 'text/html')).status, 403);
      assert.equal((await put(url.replace(key, newKey()), 'png', 'image/png')).status, 403);
      const expired = await pastPresigner.presign({
        method: 'PUT',
        key,
        expiresInSeconds: 3600,
        headers: { 'content-type': 'image/png' },
      });
      assert.equal((await put(expired, 'png', 'image/png')).status, 403);
      // None of them stored anything; the genuine link still works.
      assert.equal(
        (await fetch(await presigner.presign({ method: 'GET', key, expiresInSeconds: 60 }))).status,
        404,
      );
      assert.equal((await put(url, 'png', 'image/png')).status, 200);
    });
  });
}
