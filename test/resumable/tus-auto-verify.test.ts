import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Upload, type UploadOptions } from 'tus-js-client';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { type Clamd, clamdMissing, eicarBytes, startClamd } from '../support/clamd.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Finished = { ok: true; status: number; verified: string | undefined; body: string; url: string | null };
type Failed = { ok: false; status: number | undefined; body: string };

/** One tus-js-client upload to the end (retries off): what its last answer said, as onSuccess sees it. */
function upload(content: Buffer, options: UploadOptions): Promise<Finished | Failed> {
  return new Promise((resolve) => {
    const tus: Upload = new Upload(content, {
      retryDelays: null,
      chunkSize: 256 * 1024,
      ...options,
      onSuccess: ({ lastResponse }) =>
        resolve({
          ok: true,
          status: lastResponse.getStatus(),
          verified: lastResponse.getHeader('Coffer-File-Verified'),
          body: lastResponse.getBody(),
          url: tus.url,
        }),
      onError: (error) => {
        const response = 'originalResponse' in error ? error.originalResponse : null;
        resolve({ ok: false, status: response?.getStatus(), body: response?.getBody() ?? String(error) });
      },
    });
    tus.start();
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

/**
 * Issue 43 item 4: a tus upload asked with Upload-Metadata `verify=true`, or in a project with
 * `resumableAutoVerify=true`, is verified by its last byte through the verify service (checksum,
 * scan, admission), and the last answer carries the record, so stock clients need no glue.
 */
describe('tus uploads verified on their last byte', () => {
  let server: TestServer;
  let clamd: Clamd | undefined;
  let projects = 0;
  before(async () => {
    clamd = clamdMissing ? undefined : await startClamd();
    const scan = clamd ? { COFFER_SCAN_URL: clamd.url, COFFER_SCAN_MAX_BYTES: String(clamd.maxBytes) } : {};
    server = await startTestServer({}, scan);
  });
  after(async () => {
    await server?.stop();
    await clamd?.close();
  });

  /** A project of its own (its settings changed directly), and a user's token in it. */
  const projectWith = async (settings: Partial<ProjectSettings> = {}) => {
    const stored = server.services.repositories.projects;
    const client = await server.createProject(`tus-verify-${projects++}`);
    const project = await stored.findById(client.credentials.projectId);
    if (!project) throw new Error('the project was just created');
    await stored.updateSettings(project.id, { ...project.settings, ...settings });
    return { client, token: (await client.signup()).token };
  };
  /** Uppy's and tus-js-client's way: creation through POST /api/v1/uploads with the metadata. */
  const created = (client: ApiClient, token: string, metadata: Record<string, string>): UploadOptions => ({
    endpoint: `${server.baseUrl}/api/v1/uploads`,
    headers: {
      'sb-app-id': client.credentials.appId,
      'sb-app-secret': client.credentials.appSecret,
      authorization: `Bearer ${token}`,
    },
    metadata: { filePath: `auto/${randomBytes(4).toString('hex')}.bin`, ...metadata },
  });
  const getFile = (client: ApiClient, token: string, fileId: string) =>
    client.call('GET', `/api/v1/file/${fileId}`, { token });
  const verifiedEvents = async (fileId: string) =>
    (
      await server.services.database.db
        .selectFrom('events')
        .select('type')
        .where('type', '=', 'file.uploaded')
        .where('file_id', '=', fileId)
        .execute()
    ).length;
  const tusHeaders = { 'tus-resumable': '1.0.0' };

  it('verify=true: the last PATCH answers 200 with the verified record; a repeat and a HEAD verify nothing again', async () => {
    const { client, token } = await projectWith();
    const content = randomBytes(700 * 1024 + 3);
    const done = await upload(content, created(client, token, { verify: 'true' }));
    assert.ok(done.ok, done.body);
    assert.equal(done.status, 200);
    assert.equal(done.verified, 'true');
    const record = JSON.parse(done.body);
    assert.equal(record.verified, true, done.body);
    assert.equal(record.meta.ChecksumSHA256, sha256(content));
    const file = await getFile(client, token, record._id);
    assert.equal(file.status, 200, file.text);
    assert.deepEqual(Buffer.from(await (await fetch(file.body.url)).arrayBuffer()), content);
    assert.equal(await verifiedEvents(record._id), 1);
    // A client whose answer was lost sends the last PATCH again, or asks HEAD first.
    const url = done.url!;
    const repeated = await fetch(url, {
      method: 'PATCH',
      headers: {
        ...tusHeaders,
        'upload-offset': String(content.length),
        'content-type': 'application/offset+octet-stream',
      },
    });
    assert.equal(repeated.status, 200);
    assert.equal(repeated.headers.get('coffer-file-verified'), 'true');
    assert.equal((await repeated.json())._id, record._id);
    const head = await fetch(url, { method: 'HEAD', headers: tusHeaders });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('coffer-file-verified'), 'true');
    assert.equal(head.headers.get('upload-offset'), String(content.length));
    assert.equal(await verifiedEvents(record._id), 1, 'verified once');
  });

  it('without verify (or verify=false) the last PATCH answers 204 as before, and the file waits for its verify', async () => {
    const { client, token } = await projectWith();
    for (const metadata of [{}, { verify: 'false' }] as Record<string, string>[]) {
      const done = await upload(randomBytes(1000), created(client, token, metadata));
      assert.ok(done.ok, done.body);
      assert.equal(done.status, 204);
      assert.equal(done.verified, undefined);
    }
    const refused = await upload(randomBytes(10), created(client, token, { verify: 'yes' }));
    assert.equal(refused.ok, false);
    assert.equal(refused.status, 400);
  });

  it('resumableAutoVerify=true: a resumableUrl from POST /api/v1/file verifies on its last byte', async () => {
    const { client, token } = await projectWith({ resumableAutoVerify: true });
    const content = randomBytes(300 * 1024);
    const requested = await client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'auto/setting.bin', contentLength: content.length, resumable: true },
    });
    assert.equal(requested.status, 200, requested.text);
    const done = await upload(content, { uploadUrl: requested.body.resumableUrl });
    assert.ok(done.ok, done.body);
    assert.equal(done.status, 200);
    assert.equal(JSON.parse(done.body).verified, true);
    const again = await client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag: JSON.parse(done.body).etag },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(await verifiedEvents(requested.body.fileId), 1);
  });

  it("resumableAutoVerify=true leaves a new version's upload to its own verify (the setting names new files)", async () => {
    const { client, token } = await projectWith({ resumableAutoVerify: true });
    const first = await client.uploadFile(token, 'auto/versioned.bin', 'the first content');
    const content = randomBytes(2000);
    const requested = await client.call('POST', `/api/v1/file/${first._id}/versions`, {
      token,
      body: { resumable: true, contentLength: content.length },
    });
    assert.equal(requested.status, 200, requested.text);
    const done = await upload(content, { uploadUrl: requested.body.resumableUrl });
    assert.ok(done.ok, done.body);
    assert.equal(done.status, 204);
    assert.equal(done.verified, undefined);
  });

  it('a declared checksum that does not match: the last PATCH answers the error, in the error shape', async () => {
    const { client, token } = await projectWith();
    const content = randomBytes(2000);
    const metadata = { verify: 'true', checksumSha256: sha256(randomBytes(2000)) };
    const failed = await upload(content, created(client, token, metadata));
    assert.equal(failed.ok, false);
    assert.equal(failed.status, 400, failed.body);
    const error = JSON.parse(failed.body);
    assert.equal(error.code, 'CONTENT_MISMATCH', failed.body);
  });

  it('infected bytes with verify=true: the last PATCH answers FILE_INFECTED, and so does a later verify', {
    skip: clamdMissing ?? false,
  }, async () => {
    const { client, token } = await projectWith();
    const content = Buffer.concat([Buffer.from('before '), eicarBytes(), Buffer.from(' after')]);
    let fileId: string | undefined;
    const failed = await upload(content, {
      ...created(client, token, { verify: 'true' }),
      onAfterResponse: (request, response) => {
        if (request.getMethod() === 'POST') fileId = response.getHeader('Coffer-File-Id');
      },
    });
    assert.equal(failed.ok, false);
    assert.equal(failed.status, 422, failed.body);
    assert.equal(JSON.parse(failed.body).code, 'FILE_INFECTED');
    assert.ok(fileId);
    const pending = (await server.services.repositories.files.findById(fileId))?.pendingUpload;
    assert.ok(pending, 'the upload is kept as the plain verify leaves it');
    const later = await client.call('POST', `/api/v1/file/${fileId}/verify`, {
      token,
      body: { etag: pending.etag },
    });
    assert.equal(later.status, 422, later.text);
    assert.equal(later.body.code, 'FILE_INFECTED');
  });
});
