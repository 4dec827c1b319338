import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startAdmissionReceiver } from '../support/admission-receiver.ts';
import type { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { signInToConsole } from '../support/console-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
/** The receiver's rule: `bad/` paths and bodies saying "bad" are refused, the rest allowed. */
const judge = async (call: { payload: { data: { filePath: string; size: number } } }) => ({
  status: 200,
  body: JSON.stringify(
    call.payload.data.filePath.startsWith('bad/') || call.payload.data.size === 3
      ? { allow: false, reason: 'refused here' }
      : { allow: true },
  ),
});

/**
 * Issue 42's rule "the gate has no side door", for the admission hook: no path — copy, move,
 * version restore, trash restore, a replayed verify, the console's upload — makes bytes the
 * hook refused readable. (Racing and replayed verifies: admission-hooks.test.ts; import:
 * admission-import.test.ts.)
 */
describe('admission hooks: no side door', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startAdmissionReceiver>>;
  let projects = 0;
  before(async () => {
    receiver = await startAdmissionReceiver(secret, judge);
    server = await startTestServer({}, { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
  });
  const projectWithHook = async () => {
    const client = await server.createProject(`side-${projects++}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      admissionUrl: receiver.url,
      admissionSecret: secret,
    });
    return { client, token: (await client.signup()).token };
  };
  const put = async (client: ApiClient, token: string, filePath: string, content: string) => {
    const requested = await client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    const sent = await fetch(requested.body.putFileUrl, { method: 'PUT', body: content });
    assert.equal(sent.status, 200);
    return { fileId: requested.body.fileId as string, etag: sent.headers.get('etag')! };
  };
  const verify = (client: ApiClient, token: string, fileId: string, etag: string) =>
    client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });

  it('a refused upload: copy and download refuse, a move to an allowed path and a replayed verify still answer FILE_REJECTED', async () => {
    const { client, token } = await projectWithHook();
    const { fileId, etag } = await put(client, token, 'bad/r.txt', 'refused bytes');
    assert.equal((await verify(client, token, fileId, etag)).status, 422);
    const copied = await client.call('POST', `/api/v1/file/${fileId}/copy`, {
      token,
      body: { filePath: 'ok/copy.txt' },
    });
    assert.notEqual(copied.status, 200, copied.text);
    const read = await client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.notEqual(read.status, 200, read.text);
    const moved = await client.call('POST', `/api/v1/file/${fileId}/move`, {
      token,
      body: { filePath: 'ok/moved.txt' },
    });
    // Moving an unverified record may be refused outright; either way nothing became readable.
    assert.ok(moved.status >= 200, moved.text);
    assert.notEqual((await client.call('GET', `/api/v1/file/${fileId}`, { token })).status, 200);
    const replayed = await verify(client, token, fileId, etag);
    assert.equal(replayed.status, 422, replayed.text);
    assert.equal(replayed.body.code, 'FILE_REJECTED');
  });

  it('a refused new version: no version restore reaches it; a trash restore brings back the admitted content', async () => {
    const { client, token } = await projectWithHook();
    const first = await put(client, token, 'ok/a.txt', 'admitted');
    assert.equal((await verify(client, token, first.fileId, first.etag)).status, 200);
    const requested = await client.call('POST', `/api/v1/file/${first.fileId}/versions`, { token, body: {} });
    const sent = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'bad' });
    const refused = await client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token,
      body: { etag: sent.headers.get('etag') },
    });
    assert.equal(refused.status, 422, refused.text);
    const versions = await client.call('GET', `/api/v1/file/${first.fileId}/versions`, { token });
    assert.equal(versions.status, 200, versions.text);
    const ids = JSON.stringify(versions.body);
    assert.ok(!ids.includes(requested.body.versionId), 'the refused upload is no version');
    const restore = await client.call(
      'POST',
      `/api/v1/file/${first.fileId}/versions/${requested.body.versionId}/restore`,
      { token },
    );
    assert.notEqual(restore.status, 200, restore.text);
    assert.equal((await client.call('DELETE', `/api/v1/file/${first.fileId}`, { token })).status, 204);
    const back = await client.call('POST', `/api/v1/trash/${first.fileId}/restore`, { token });
    assert.equal(back.status, 200, back.text);
    const record = await server.services.repositories.files.findById(first.fileId);
    assert.equal(record?.etag, first.etag);
    assert.equal(record?.content?.sizeBytes, 'admitted'.length);
  });
});

describe('admission hooks: the console upload asks the hook too', () => {
  let coffer: CofferProcess;
  let receiver: Awaited<ReturnType<typeof startAdmissionReceiver>>;
  before(async () => {
    receiver = await startAdmissionReceiver(secret, judge);
    coffer = await startCofferProcess({ env: { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });
  after(async () => {
    await coffer?.stop();
    await receiver?.close();
  });

  it("an operator's upload of refused bytes: 422 FILE_REJECTED, nothing readable", async () => {
    const cli = (...args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);
    assert.equal((await cli('project', 'set', 'default', `admissionUrl=${receiver.url}`)).code, 0);
    assert.equal((await cli('project', 'set', 'default', `admissionSecret=${secret}`)).code, 0);
    const { userId } = await coffer.client.signup();
    const call = await signInToConsole(coffer);
    const projectId = coffer.credentials.projectId;
    const requested = await call('POST', `/projects/${projectId}/files`, {
      ownerId: userId,
      filePath: 'bad/c.txt',
    });
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    const sent = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'console bytes' });
    const verified = await call('POST', `/projects/${projectId}/files/${requested.body.fileId}/verify`, {
      etag: sent.headers.get('etag'),
    });
    assert.equal(verified.status, 422, JSON.stringify(verified.body));
    assert.equal(verified.body.code, 'FILE_REJECTED');
    assert.ok(receiver.calls.some((seen) => seen.payload.data.fileId === requested.body.fileId));
  });
});
