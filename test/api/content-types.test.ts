import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const pdf = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const html = Buffer.from('\n  <!DOCTYPE html><html><script>alert(document.cookie)</script></html>');
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/** Issue 10, item 7: content types told by content; active types always served as sandboxed attachments. */
describe('content types told by the bytes, and active content', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    // Presigned downloads where the store signs its own links (S3): active content must still
    // take the gateway, which sends the sandbox policy (issue 23, item 10).
    const { projects } = server.services.repositories;
    const project = await projects.findById(server.credentials.projectId);
    await projects.updateSettings(project!.id, { ...project!.settings, downloads: 'presigned' });
    token = (await server.client.signup()).token;
  });
  after(() => server?.stop());

  /** Uploads with this Content-Type (none: undefined), verifies, answers the record and a download. */
  const upload = async (filePath: string, body: Buffer, contentType?: string) => {
    const requested = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: new Uint8Array(body),
      headers: contentType === undefined ? {} : { 'content-type': contentType },
    });
    assert.equal(put.status, 200, await put.clone().text());
    const verified = await server.client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    const link = await server.client.call('GET', `/api/v1/file/${requested.body.fileId}`, { token });
    return { type: verified.body.meta.ContentType as string, url: link.body.url as string };
  };

  const detected = [
    {
      name: 'PNG bytes without a type',
      filePath: 'a/image.bin',
      body: png,
      sent: undefined,
      type: 'image/png',
    },
    {
      name: 'PDF bytes sent as octet-stream',
      filePath: 'a/doc',
      body: pdf,
      sent: 'application/octet-stream',
      type: 'application/pdf',
    },
    {
      name: 'HTML bytes named .txt, without a type',
      filePath: 'a/page.txt',
      body: html,
      sent: undefined,
      type: 'text/html',
    },
    {
      name: 'SVG bytes without a type or extension',
      filePath: 'a/pic',
      body: svg,
      sent: undefined,
      type: 'image/svg+xml',
    },
    {
      name: 'plain text without a type: the extension',
      filePath: 'a/notes.md',
      body: Buffer.from('# notes'),
      sent: undefined,
      type: 'text/markdown',
    },
    {
      name: 'unknown bytes, no extension: octet-stream',
      filePath: 'a/blob',
      body: Buffer.from([0, 1, 2, 3]),
      sent: undefined,
      type: 'application/octet-stream',
    },
    {
      name: 'a named type is kept over the bytes',
      filePath: 'a/named.bin',
      body: png,
      sent: 'image/x-custom',
      type: 'image/x-custom',
    },
  ];
  for (const test of detected) {
    it(`${test.name} → ${test.type}`, async () => {
      const { type } = await upload(test.filePath, test.body, test.sent);
      assert.equal(type, test.type);
    });
  }

  it('active types (HTML, SVG) download through the gateway as attachments under the sandbox policy, also on S3', async () => {
    for (const [filePath, body, sent] of [
      ['active/page.html', html, 'text/html'],
      ['active/pic', svg, undefined],
    ] as const) {
      const { url } = await upload(filePath, body, sent);
      assert.ok(url.startsWith(server.baseUrl), `${filePath}: served by Coffer, not by the store: ${url}`);
      const download = await fetch(url);
      assert.equal(download.status, 200);
      assert.match(download.headers.get('content-disposition') ?? '', /^attachment;/);
      assert.equal(download.headers.get('content-security-policy'), "default-src 'none'; sandbox");
      assert.equal(download.headers.get('x-content-type-options'), 'nosniff');
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), body);
    }
  });

  // The declared type wins for serving (docs/security.md, "Active content"): with nosniff a
  // browser shows text/plain as text and never runs it, and the download is an attachment.
  it('HTML bytes declared text/plain are recorded and served as text/plain attachments, never as a page', async () => {
    const { type, url } = await upload('declared/trick.txt', html, 'text/plain');
    assert.equal(type, 'text/plain');
    assert.equal(url.startsWith(server.baseUrl), currentStackName() === 'embedded', 'S3 serves it');
    const download = await fetch(url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'text/plain');
    assert.match(download.headers.get('content-disposition') ?? '', /^attachment;/);
    if (url.startsWith(server.baseUrl)) {
      assert.equal(download.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(download.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    }
  });
});
