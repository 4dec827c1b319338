import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

// Uploads into a user's files, previews and downloads through the console, and the usage page's
// figures, on a real `coffer serve`; checked through the public API where it can see them.
describe('console: uploads, content and usage', () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let files: string;
  let owner: { token: string; userId: string; email: string };

  /** The console's upload: request, PUT to the signed link, verify; answers the file id. */
  async function uploadAs(ownerId: string, filePath: string, content: string, contentType: string) {
    const requested = await call('POST', files, {
      ownerId,
      filePath,
      contentType,
      contentLength: Buffer.byteLength(content),
    });
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: content,
      headers: { 'content-type': contentType },
    });
    assert.equal(put.status, 200, await put.text());
    const verified = await call('POST', `${files}/${requested.body.fileId}/verify`, {
      etag: put.headers.get('etag'),
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return requested.body.fileId as string;
  }

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
    files = `/projects/${coffer.credentials.projectId}/files`;
    owner = await coffer.client.signup();
  });
  after(() => coffer.stop());

  it('uploads into a user’s files: the user owns the file and reads it through the API', async () => {
    const id = await uploadAs(owner.userId, 'notes/hello.txt', 'hello from the console', 'text/plain');
    const seen = await coffer.client.call('GET', `/api/v1/file/${id}`, { token: owner.token });
    assert.equal(seen.status, 200);
    assert.equal(seen.body.filePath, 'notes/hello.txt');
    assert.equal(await (await fetch(seen.body.url)).text(), 'hello from the console');
    const nobody = await call('POST', files, { ownerId: 'no-such-user', filePath: 'x.txt' });
    assert.equal(nobody.status, 404);
    const badPath = await call('POST', files, { ownerId: owner.userId, filePath: '../x.txt' });
    assert.equal(badPath.status, 400);
  });

  it('previews only what cannot run, under a policy; everything else is an attachment', async () => {
    const text = await uploadAs(owner.userId, 'preview/a.txt', 'plain words', 'text/plain');
    const page = await uploadAs(owner.userId, 'preview/page.html', '<script>alert(1)</script>', 'text/html');
    const shown = await call.raw(`${files}/${text}/content`);
    assert.equal(shown.status, 200);
    assert.equal(await shown.text(), 'plain words');
    assert.match(shown.headers.get('content-disposition')!, /^inline;/);
    assert.equal(shown.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(shown.headers.get('x-content-type-options'), 'nosniff');
    assert.match(shown.headers.get('content-security-policy')!, /default-src 'none'.*sandbox/);
    const html = await call.raw(`${files}/${page}/content`);
    assert.match(html.headers.get('content-disposition')!, /^attachment;/, 'HTML never inline');
    assert.match(html.headers.get('content-security-policy')!, /sandbox/);
    const download = await call.raw(`${files}/${text}/content?download=1`);
    assert.match(download.headers.get('content-disposition')!, /^attachment; filename="a.txt"/);
    const part = await call.raw(`${files}/${text}/content`, { range: 'bytes=6-10' });
    assert.equal(part.status, 206);
    assert.equal(await part.text(), 'words');
    const requested = await call('POST', files, { ownerId: owner.userId, filePath: 'never-sent.txt' });
    const unverified = await call.raw(`${files}/${requested.body.fileId}/content`);
    assert.equal(unverified.status, 409);
    const signedOut = await fetch(`${coffer.baseUrl}/console/api${files}/${text}/content`);
    assert.equal(signedOut.status, 401, 'no session, no bytes');
  });

  it('shows usage per project and per user, and traffic from the /metrics counters', async () => {
    const usage = await call('GET', '/usage');
    assert.equal(usage.status, 200);
    const project = usage.body.projects.find(
      (candidate: { projectId: string }) => candidate.projectId === coffer.credentials.projectId,
    );
    assert.ok(project.files >= 3 && project.bytes > 0, JSON.stringify(project));
    const samples = usage.body.traffic.samples;
    assert.ok(samples.length >= 2, 'a sample at start and one now');
    const now = samples.at(-1);
    const metrics = await (await fetch(`${coffer.baseUrl}/metrics`)).text();
    const uploaded = Number(/^coffer_uploaded_bytes_total (\d+)/m.exec(metrics)?.[1]);
    assert.ok(uploaded > 0);
    assert.equal(now.uploadedBytes, uploaded, 'the same counter as /metrics');
    const perUser = await call('GET', `/projects/${coffer.credentials.projectId}/usage?limit=5`);
    assert.equal(perUser.status, 200);
    assert.equal(perUser.body.users[0].userId, owner.userId);
    assert.equal(perUser.body.files, project.files);
    assert.equal(
      (await call('GET', `/projects/${coffer.credentials.projectId}/usage?limit=1000`)).status,
      400,
    );
  });
});
