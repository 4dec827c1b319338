import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type AdmissionCallSeen, startAdmissionReceiver } from '../support/admission-receiver.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

type Reply = { status: number; body: string };

/**
 * Issue 42, item 3, on direct uploads to S3: the bytes a client PUT straight to the bucket are
 * adopted at verify; with a hook on they are recorded first, so the hook is asked once per upload
 * (a retry answers the recorded outcome) and its url serves them, as for any other upload.
 */
describe('admission hooks on direct uploads to S3', {
  skip: currentStackName() === 'pg-s3' ? false : 'needs S3: runs in the PostgreSQL + S3 pass',
}, () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startAdmissionReceiver>>;
  let respond: (call: AdmissionCallSeen) => Promise<Reply> = async () => ({
    status: 200,
    body: '{"allow":true}',
  });
  before(async () => {
    receiver = await startAdmissionReceiver(secret, (call) => respond(call));
    server = await startTestServer(
      {},
      { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true', COFFER_UPLOAD_MODE: 'direct' },
    );
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const projectWithHook = async () => {
    const client = await server.createProject(`adm-direct-${randomBytes(3).toString('hex')}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      admissionUrl: receiver.url,
      admissionSecret: secret,
    });
    return { client, ...(await client.signup()) };
  };
  const putDirect = async (client: ApiClient, token: string, content: Buffer) => {
    const requested = await client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `d/${randomBytes(4).toString('hex')}.bin`, contentType: 'application/octet-stream' },
    });
    const etag = await putToS3(requested, content);
    return { fileId: requested.body.fileId as string, etag };
  };
  /** PUTs `content` to the S3 link an upload (or version) request answered: S3's ETag. */
  const putToS3 = async (requested: ApiResponse, content: Buffer) => {
    assert.equal(requested.status, 200, requested.text);
    assert.ok(!requested.body.putFileUrl.startsWith(server.baseUrl), 'the link points at S3');
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: new Uint8Array(content),
      headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(put.status, 200);
    return put.headers.get('etag');
  };
  const verify = (client: ApiClient, token: string, fileId: string, etag: string | null) =>
    client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });
  const callsFor = (fileId: string) => receiver.calls.filter((call) => call.payload.data.fileId === fileId);

  it('allow: the url serves the bytes the client put to S3; a retried verify asks nothing more', async () => {
    const { client, token } = await projectWithHook();
    const content = randomBytes(2000);
    let served: Buffer | undefined;
    respond = async (call) => {
      const answer = await fetch(call.payload.data.url);
      served = Buffer.from(await answer.arrayBuffer());
      return { status: 200, body: '{"allow":true}' };
    };
    const { fileId, etag } = await putDirect(client, token, content);
    const verified = await verify(client, token, fileId, etag);
    assert.equal(verified.status, 200, verified.text);
    assert.ok(served?.equals(content), 'the url served the adopted bytes');
    assert.equal((await verify(client, token, fileId, etag)).status, 200);
    assert.equal(callsFor(fileId).length, 1);
  });

  it('refuse: 422 FILE_REJECTED, again on retry without a second call, one file.rejected event', async () => {
    const { client, token } = await projectWithHook();
    respond = async () => ({ status: 200, body: '{"allow":false,"reason":"not here"}' });
    const { fileId, etag } = await putDirect(client, token, randomBytes(500));
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await verify(client, token, fileId, etag);
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.code, 'FILE_REJECTED');
      assert.equal(refused.body.details.reason, 'not here');
    }
    assert.equal(callsFor(fileId).length, 1);
    const events = await server.services.database.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'file.rejected')
      .where('file_id', '=', fileId)
      .execute();
    assert.equal(events.length, 1);
  });

  it('a new version put straight to S3: the hook sees its bytes; refused, the current version stays', async () => {
    const { client, token } = await projectWithHook();
    respond = async () => ({ status: 200, body: '{"allow":true}' });
    const first = randomBytes(700);
    const { fileId, etag } = await putDirect(client, token, first);
    assert.equal((await verify(client, token, fileId, etag)).status, 200);
    const putVersion = async (content: Buffer) => {
      const requested = await client.call('POST', `/api/v1/file/${fileId}/versions`, {
        token,
        body: { contentType: 'application/octet-stream' },
      });
      const etag = await putToS3(requested, content);
      const verifyUrl = new URL(requested.body.postVerifyUploadUrl as string);
      const answer = await client.call('POST', verifyUrl.pathname, { token, body: { etag } });
      return { answer, versionId: requested.body.versionId as string };
    };
    const second = randomBytes(900);
    let served: Buffer | undefined;
    respond = async (call) => {
      served = Buffer.from(await (await fetch(call.payload.data.url)).arrayBuffer());
      return { status: 200, body: '{"allow":false,"reason":"no second"}' };
    };
    const { answer, versionId } = await putVersion(second);
    assert.equal(answer.status, 422, answer.text);
    assert.equal(answer.body.code, 'FILE_REJECTED');
    assert.ok(served?.equals(second), "the url served the new version's bytes");
    const asked = callsFor(fileId).at(-1);
    assert.equal(asked?.payload.data.versionId, versionId);
    const current = await client.call('GET', `/api/v1/file/${fileId}`, { token });
    const read = await fetch(current.body.url);
    assert.ok(Buffer.from(await read.arrayBuffer()).equals(first), 'the first version is still served');
  });
});
