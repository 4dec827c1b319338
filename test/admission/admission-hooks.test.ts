import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { describeProject } from '../../src/cli/admin-commands.ts';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import { type AdmissionCallSeen, startAdmissionReceiver } from '../support/admission-receiver.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Reply = { status: number; body: string } | 'hang';
const allow = (extra: object = {}): Reply => ({
  status: 200,
  body: JSON.stringify({ allow: true, ...extra }),
});

/**
 * Issue 42, item 3: a project's admission hook, asked (signed, Standard Webhooks) after the scan
 * and before verify commits, on every verify path; checked by a receiver that verifies with the
 * stock `standardwebhooks` package.
 */
describe('admission hooks at verify', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startAdmissionReceiver>>;
  /** What the receiver answers the next calls (per test). */
  let respond: (call: AdmissionCallSeen) => Promise<Reply> = async () => allow();
  let projects = 0;
  before(async () => {
    receiver = await startAdmissionReceiver(secret, (call) => respond(call));
    server = await startTestServer({}, { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const projectWith = async (settings: Partial<ProjectSettings> = {}, on = server) => {
    const client = await on.createProject(`adm-${projects++}`);
    const { projectId } = client.credentials;
    const current = await on.services.repositories.projects.findById(projectId);
    const hook = { admissionUrl: receiver.url, admissionSecret: secret };
    await on.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      ...hook,
      ...settings,
    });
    const signed = await client.signup();
    return { client, token: signed.token, userId: signed.userId, projectId };
  };
  const expectCode = (answer: ApiResponse, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.body.code, code, answer.text);
  };
  const put = async (client: ApiClient, token: string, content: Buffer, customData?: object) => {
    const filePath = `f/${randomBytes(4).toString('hex')}.txt`;
    const requested = await client.call('POST', '/api/v1/file', {
      token,
      body: { filePath, ...(customData && { customData }) },
    });
    assert.equal(requested.status, 200, requested.text);
    const answer = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: new Uint8Array(content),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(answer.status, 200);
    return { fileId: requested.body.fileId as string, filePath, etag: answer.headers.get('etag')! };
  };
  const verify = (client: ApiClient, token: string, fileId: string, etag: string) =>
    client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });
  const callsFor = (fileId: string) => receiver.calls.filter((call) => call.payload.data.fileId === fileId);
  const eventsOf = (fileId: string, type: string) =>
    server.services.database.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', type)
      .where('file_id', '=', fileId)
      .execute();

  it('allow: one signed call with the upload, its url serves exactly the pending bytes, then stops; a retry asks nothing', async () => {
    const { client, token, userId } = await projectWith();
    const content = randomBytes(3000);
    let readThroughUrl: Buffer | undefined;
    respond = async (call) => {
      const answer = await fetch(call.payload.data.url);
      assert.equal(answer.status, 200);
      readThroughUrl = Buffer.from(await answer.arrayBuffer());
      return allow();
    };
    const { fileId, filePath, etag } = await put(client, token, content, { tag: 'a' });
    const verified = await verify(client, token, fileId, etag);
    assert.equal(verified.status, 200, verified.text);
    const [call, ...more] = callsFor(fileId);
    assert.ok(call);
    assert.equal(more.length, 0);
    assert.equal(call.payload.type, 'file.admission');
    const { data } = call.payload;
    assert.deepEqual(
      { ...data, url: undefined },
      {
        fileId,
        versionId: fileId,
        filePath,
        creator: userId,
        size: content.length,
        contentType: 'text/plain',
        checksumSha256: createHash('sha256').update(content).digest('base64'),
        customData: { tag: 'a' },
        url: undefined,
      },
    );
    assert.ok(readThroughUrl?.equals(content), 'the url served the pending bytes');
    // Once the verify answered, the url serves nothing (the bytes are readable only as the file).
    assert.equal((await fetch(data.url)).status, 404);
    const again = await verify(client, token, fileId, etag);
    assert.equal(again.status, 200, again.text);
    assert.equal(callsFor(fileId).length, 1, 'a repeated verify asks nothing');
  });

  it('refuse: 422 FILE_REJECTED with the reason, again on retry without a second call, bytes gone, a file.rejected event', async () => {
    const { client, token } = await projectWith();
    respond = async () => ({
      status: 200,
      body: JSON.stringify({ allow: false, reason: 'no cats allowed' }),
    });
    const { fileId, etag } = await put(client, token, Buffer.from('a cat'));
    const pending = (await server.services.repositories.files.findById(fileId))!.pendingUpload!;
    const refused = await verify(client, token, fileId, etag);
    expectCode(refused, 422, 'FILE_REJECTED');
    assert.equal(refused.body.details.reason, 'no cats allowed');
    const again = await verify(client, token, fileId, etag);
    expectCode(again, 422, 'FILE_REJECTED');
    assert.equal(callsFor(fileId).length, 1);
    const [event, ...others] = await eventsOf(fileId, 'file.rejected');
    assert.ok(event);
    assert.equal(others.length, 0);
    assert.equal(JSON.parse(event.data).reason, 'no cats allowed');
    const key = `${(await server.services.repositories.files.findById(fileId))!.projectId}/${fileId}`;
    assert.equal(
      await server.services.blobs.get(key, pending.blobVersion),
      undefined,
      'the bytes are deleted',
    );
    const link = await client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.notEqual(link.status, 200, 'nothing readable');
  });

  it('a refusal reason is cut to 500 characters', async () => {
    const { client, token } = await projectWith();
    respond = async () => ({ status: 200, body: JSON.stringify({ allow: false, reason: 'x'.repeat(2000) }) });
    const { fileId, etag } = await put(client, token, Buffer.from('long'));
    const refused = await verify(client, token, fileId, etag);
    expectCode(refused, 422, 'FILE_REJECTED');
    assert.equal(refused.body.details.reason.length, 500);
  });

  it('allow with customData: it replaces the file customData in the verify commit; customData customData may not be is no answer', async () => {
    const { client, token } = await projectWith();
    respond = async () => allow({ customData: { reviewed: true, label: 'ok' } });
    const { fileId, etag } = await put(client, token, Buffer.from('doc'), { tag: 'mine' });
    const verified = await verify(client, token, fileId, etag);
    assert.equal(verified.status, 200, verified.text);
    const record = await server.services.repositories.files.findById(fileId);
    assert.deepEqual(record?.customData, { reviewed: true, label: 'ok' });

    respond = async () => allow({ customData: ['not', 'an', 'object'] });
    const second = await put(client, token, Buffer.from('doc2'));
    expectCode(await verify(client, token, second.fileId, second.etag), 503, 'ADMISSION_UNAVAILABLE');
  });

  it('a hook that does not answer in time: 503 with Retry-After, nothing lost; the next verify asks again and succeeds', async () => {
    const { client, token } = await projectWith({ admissionTimeoutSeconds: 1 });
    respond = async () => 'hang';
    const { fileId, etag } = await put(client, token, Buffer.from('slow'));
    const unavailable = await verify(client, token, fileId, etag);
    expectCode(unavailable, 503, 'ADMISSION_UNAVAILABLE');
    assert.ok(Number(unavailable.headers.get('retry-after')) > 0);
    respond = async () => allow();
    const verified = await verify(client, token, fileId, etag);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(callsFor(fileId).length, 2);
  });

  it('no usable answer (500, not JSON, no boolean allow): 503 each; with admissionFailOpen the file is admitted', async () => {
    const { client, token } = await projectWith();
    for (const reply of [
      { status: 500, body: '{}' },
      { status: 200, body: 'yes' },
      { status: 200, body: '{"allow":"true"}' },
    ]) {
      respond = async () => reply;
      const { fileId, etag } = await put(client, token, Buffer.from('x'));
      expectCode(await verify(client, token, fileId, etag), 503, 'ADMISSION_UNAVAILABLE');
    }
    const open = await projectWith({ admissionFailOpen: true, admissionTimeoutSeconds: 1 });
    respond = async () => 'hang';
    const { fileId, etag } = await put(open.client, open.token, Buffer.from('y'));
    const verified = await verify(open.client, open.token, fileId, etag);
    assert.equal(verified.status, 200, verified.text);
  });

  // A bound: without a call to the hook, the wait for it would never end.
  it('two verifies racing the hook: one call, one outcome', { timeout: 60_000 }, async () => {
    const { client, token } = await projectWith();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let called: () => void = () => {};
    const calledOnce = new Promise<void>((resolve) => {
      called = resolve;
    });
    respond = async () => {
      called();
      await held;
      return allow();
    };
    const { fileId, etag } = await put(client, token, Buffer.from('race'));
    const first = verify(client, token, fileId, etag);
    await calledOnce;
    const second = await verify(client, token, fileId, etag);
    expectCode(second, 503, 'ADMISSION_UNAVAILABLE');
    release();
    assert.equal((await first).status, 200);
    assert.equal((await verify(client, token, fileId, etag)).status, 200);
    assert.equal(callsFor(fileId).length, 1);
  });

  it('a new version passes the hook too: refused, the file keeps its content', async () => {
    const { client, token } = await projectWith();
    respond = async () => allow();
    const first = await put(client, token, Buffer.from('v1'));
    assert.equal((await verify(client, token, first.fileId, first.etag)).status, 200);
    respond = async (call) => ({
      status: 200,
      body: JSON.stringify({ allow: call.payload.data.size !== 2, reason: 'v2 is bad' }),
    });
    const requested = await client.call('POST', `/api/v1/file/${first.fileId}/versions`, { token, body: {} });
    assert.equal(requested.status, 200, requested.text);
    const answer = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'v2' });
    const refused = await client.call(
      'POST',
      requested.body.postVerifyUploadUrl.replace(/^https?:\/\/[^/]+/, ''),
      {
        token,
        body: { etag: answer.headers.get('etag') },
      },
    );
    expectCode(refused, 422, 'FILE_REJECTED');
    const calls = callsFor(first.fileId);
    assert.equal(calls.at(-1)?.payload.data.versionId, requested.body.versionId);
    const record = await server.services.repositories.files.findById(first.fileId);
    assert.equal(record?.etag, first.etag);
  });

  it('the url is signed: an edited one is refused', async () => {
    const { client, token } = await projectWith();
    let status = 0;
    respond = async (call) => {
      // Another first character of the signature, whatever it was.
      const url = call.payload.data.url.replace(
        /sig=(.)/,
        (_all, first) => `sig=${first === 'A' ? 'B' : 'A'}`,
      );
      status = (await fetch(url)).status;
      return allow();
    };
    const { fileId, etag } = await put(client, token, Buffer.from('signed'));
    assert.equal((await verify(client, token, fileId, etag)).status, 200);
    assert.equal(status, 403);
  });

  it('a private address is refused without COFFER_WEBHOOK_ALLOW_PRIVATE: 503, no call', async () => {
    const guarded = await startTestServer();
    try {
      const { client, token } = await projectWith({}, guarded);
      const { fileId, etag } = await put(client, token, Buffer.from('ssrf'));
      const answer = await verify(client, token, fileId, etag);
      expectCode(answer, 503, 'ADMISSION_UNAVAILABLE');
      assert.match(answer.body.message, /refused/);
      assert.equal(callsFor(fileId).length, 0);
    } finally {
      await guarded.stop();
    }
  });

  it('the secret is never shown back: project show and set print (set)', async () => {
    const { projectId } = await projectWith();
    const project = await server.services.repositories.projects.findById(projectId);
    const shown = JSON.stringify(describeProject(project!));
    assert.ok(!shown.includes(secret.slice(6, 20)), shown);
    assert.equal(describeProject(project!).settings.admissionSecret, '(set)');
  });
});
