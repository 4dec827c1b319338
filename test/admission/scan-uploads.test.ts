import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { type Clamd, clamdMissing, eicarBytes, eicarSignature, startClamd } from '../support/clamd.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';
import { runTusUpload } from '../support/tus-upload.ts';

/** EICAR inside other bytes: a body signature finds it anywhere (anchors §7.2). */
const infected = () => Buffer.concat([Buffer.from('before '), eicarBytes(), Buffer.from(' after')]);

/**
 * Issue 42, the malware gate: every way bytes become a file version is scanned by a real clamd
 * (a private one, test/support/clamd.ts) before verify; infected bytes are refused and deleted,
 * a scanner that cannot answer loses nothing.
 */
describe('malware scanning at verify', { skip: clamdMissing ?? false }, () => {
  let clamd: Clamd;
  let server: TestServer;
  let projects = 0;
  before(async () => {
    clamd = await startClamd();
    server = await startTestServer(
      {},
      { COFFER_SCAN_URL: clamd.url, COFFER_SCAN_MAX_BYTES: String(clamd.maxBytes) },
    );
  });
  after(async () => {
    await server?.stop();
    await clamd?.close();
  });

  const projectWith = async (settings: Partial<ProjectSettings> = {}, on = server) => {
    const client = await on.createProject(`scan-${projects++}`);
    const { projectId } = client.credentials;
    const current = await on.services.repositories.projects.findById(projectId);
    await on.services.repositories.projects.updateSettings(projectId, { ...current!.settings, ...settings });
    return { client, token: (await client.signup()).token };
  };
  const expectCode = (answer: ApiResponse, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.body.code, code, answer.text);
  };
  /** Requests an upload and PUTs `content` to its link: the PUT's answer and the file's id. */
  const put = async (
    client: ApiClient,
    token: string,
    content: Buffer,
    filePath = `f/${randomBytes(4).toString('hex')}.bin`,
  ) => {
    const requested = await client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    const answer = await fetch(requested.body.putFileUrl, { method: 'PUT', body: new Uint8Array(content) });
    return { fileId: requested.body.fileId as string, answer, body: await answer.json().catch(() => ({})) };
  };
  const verify = (client: ApiClient, token: string, fileId: string, etag: string | null | undefined) =>
    client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag: etag ?? '"none"' } });
  const infectedEventsOf = async (fileId: string) =>
    server.services.database.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'file.infected')
      .where('file_id', '=', fileId)
      .execute();
  const assertInfectedAnswer = (answer: ApiResponse) => {
    expectCode(answer, 422, 'FILE_INFECTED');
    assert.ok(answer.body.details.signature.startsWith(eicarSignature), answer.text);
  };

  it('a PUT of EICAR: refused while it streams, verify answers FILE_INFECTED (again on retry), bytes gone, one event', async () => {
    const { client, token } = await projectWith();
    const { fileId, answer, body } = await put(client, token, infected());
    assert.equal(answer.status, 422);
    assert.equal(body.code, 'FILE_INFECTED');
    const record = await server.services.repositories.files.findById(fileId);
    const pending = record?.pendingUpload;
    assert.ok(pending, 'the verdict is kept with the upload');
    assert.equal(pending.scan?.result, 'infected');
    assert.equal(
      await server.services.blobs.get(`${record.projectId}/${fileId}`, pending.blobVersion),
      undefined,
    );
    for (let attempt = 0; attempt < 2; attempt++)
      assertInfectedAnswer(await verify(client, token, fileId, pending.etag));
    const file = await client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(file.body.url, undefined, `nothing readable: ${file.text}`);
    assert.equal((await server.services.repositories.files.findById(fileId))?.verified, false);
    const events = await infectedEventsOf(fileId);
    assert.equal(events.length, 1, 'one file.infected event, however often verify is asked');
  });

  it('a clean PUT: verified with meta.scan, and a copy keeps the verdict', async () => {
    const { client, token } = await projectWith();
    const content = randomBytes(200_000);
    const { fileId, answer } = await put(client, token, content);
    assert.equal(answer.status, 200);
    const verified = await verify(client, token, fileId, answer.headers.get('etag'));
    assert.equal(verified.status, 200, verified.text);
    const { scan } = verified.body.meta;
    assert.equal(scan.result, 'clean');
    assert.match(scan.engine, /^ClamAV /);
    assert.equal(typeof scan.signatures, 'string');
    assert.ok(!Number.isNaN(Date.parse(scan.scannedAt)));
    const again = await verify(client, token, fileId, answer.headers.get('etag'));
    assert.deepEqual(again.body.meta.scan, scan, 'a repeated verify answers the same verdict');
    const copied = await client.call('POST', `/api/v1/file/${fileId}/copy`, {
      token,
      body: { filePath: 'copies/c.bin' },
    });
    assert.equal(copied.status, 200, copied.text);
    assert.deepEqual(copied.body.meta.scan, scan);
  });

  it('tus (tus-js-client): EICAR is refused at verify and deleted; clean bytes pass with meta.scan', async () => {
    const { client, token } = await projectWith();
    const send = async (content: Buffer) => {
      const requested = await client.call('POST', '/api/v1/file', {
        token,
        body: {
          filePath: `tus/${randomBytes(4).toString('hex')}`,
          contentLength: content.length,
          resumable: true,
        },
      });
      assert.equal(requested.status, 200, requested.text);
      const sent = await runTusUpload(content, { uploadUrl: requested.body.resumableUrl, chunkSize: 40 });
      assert.ok(sent.ok, sent.ok ? '' : sent.error.message);
      return { fileId: requested.body.fileId as string, etag: sent.etag };
    };
    const bad = await send(infected());
    assertInfectedAnswer(await verify(client, token, bad.fileId, bad.etag));
    assertInfectedAnswer(await verify(client, token, bad.fileId, bad.etag));
    assert.equal((await infectedEventsOf(bad.fileId)).length, 1);
    const record = await server.services.repositories.files.findById(bad.fileId);
    assert.equal(record?.verified, false);
    assert.equal(
      await server.services.blobs.get(`${record.projectId}/${bad.fileId}`, record.pendingUpload!.blobVersion),
      undefined,
    );
    const good = await send(randomBytes(100));
    const verified = await verify(client, token, good.fileId, good.etag);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.scan.result, 'clean');
  });

  it('a new version: EICAR refused (PUT and verify), the current version stays; a clean one carries meta.scan', async () => {
    const { client, token } = await projectWith();
    const first = await client.uploadFile(token, 'v/doc.txt', 'version one');
    const version = async (content: Buffer) => {
      const requested = await client.call('POST', `/api/v1/file/${first._id}/versions`, { token, body: {} });
      assert.equal(requested.status, 200, requested.text);
      const sent = await fetch(requested.body.putFileUrl, { method: 'PUT', body: new Uint8Array(content) });
      const pathname = new URL(requested.body.postVerifyUploadUrl).pathname;
      const versionId = requested.body.versionId as string;
      return {
        sent,
        versionId,
        verify: (etag: string | null) => client.call('POST', pathname, { token, body: { etag } }),
      };
    };
    const bad = await version(infected());
    assert.equal(bad.sent.status, 422);
    const pending = (await server.services.repositories.versions.findUpload(bad.versionId))?.pendingUpload;
    assert.equal(pending?.scan?.result, 'infected', 'the verdict is kept with the upload');
    assertInfectedAnswer(await bad.verify(pending.etag));
    assertInfectedAnswer(await bad.verify(pending.etag));
    assert.equal((await infectedEventsOf(first._id)).length, 1);
    const file = await client.call('GET', `/api/v1/file/${first._id}`, { token });
    assert.equal(file.body.versionId, first.versionId, 'the current version is unchanged');
    assert.equal(await (await fetch(file.body.url)).text(), 'version one');
    const good = await version(Buffer.from('version two'));
    assert.equal(good.sent.status, 200);
    const promoted = await good.verify(good.sent.headers.get('etag'));
    assert.equal(promoted.status, 200, promoted.text);
    assert.equal(promoted.body.meta.scan.result, 'clean');
  });

  it('verifies racing each other over unscanned bytes: one verdict, one event, nothing readable when infected', async () => {
    const { client, token } = await projectWith();
    const tusUpload = async (content: Buffer) => {
      const requested = await client.call('POST', '/api/v1/file', {
        token,
        body: {
          filePath: `race/${randomBytes(4).toString('hex')}`,
          contentLength: content.length,
          resumable: true,
        },
      });
      const sent = await runTusUpload(content, { uploadUrl: requested.body.resumableUrl });
      assert.ok(sent.ok);
      return { fileId: requested.body.fileId as string, etag: sent.etag };
    };
    const bad = await tusUpload(infected());
    const refused = await Promise.all([1, 2, 3].map(() => verify(client, token, bad.fileId, bad.etag)));
    for (const answer of refused) assertInfectedAnswer(answer);
    assert.equal((await infectedEventsOf(bad.fileId)).length, 1);
    assert.equal((await server.services.repositories.files.findById(bad.fileId))?.verified, false);
    const good = await tusUpload(randomBytes(5000));
    const answers = await Promise.all([1, 2, 3].map(() => verify(client, token, good.fileId, good.etag)));
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    const recorded = (await server.services.repositories.files.findById(good.fileId))?.scan;
    for (const answer of answers)
      assert.deepEqual(answer.body.meta.scan, recorded, 'one verdict, the recorded one');
  });

  it('a version restore and a trash restore keep the verdict of their bytes', async () => {
    const { client, token } = await projectWith();
    const { fileId, answer } = await put(client, token, Buffer.from('first bytes'), 'keep/a.txt');
    const first = await verify(client, token, fileId, answer.headers.get('etag'));
    const scan = first.body.meta.scan;
    assert.equal(scan.result, 'clean');
    const requested = await client.call('POST', `/api/v1/file/${fileId}/versions`, { token, body: {} });
    const sent = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'second bytes' });
    const second = await client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token,
      body: { etag: sent.headers.get('etag') },
    });
    assert.equal(second.status, 200, second.text);
    assert.notDeepEqual(second.body.meta.scan, scan, 'the new bytes have a verdict of their own');
    const restored = await client.call('POST', `/api/v1/file/${fileId}/versions/${fileId}/restore`, {
      token,
    });
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(restored.body.meta.scan, scan);
    assert.equal((await client.call('DELETE', `/api/v1/file/${fileId}`, { token })).status, 204);
    const back = await client.call('POST', `/api/v1/trash/${fileId}/restore`, { token });
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(back.body.meta.scan, scan);
  });

  it('the scanner stopped: 503 SCANNER_UNAVAILABLE with Retry-After, and the same verify succeeds once it is back', async () => {
    const { client, token } = await projectWith();
    await clamd.stop();
    try {
      const { fileId, answer } = await put(client, token, Buffer.from('kept while the scanner is away'));
      assert.equal(answer.status, 200, 'the PUT keeps the bytes for a later verify');
      const refused = await verify(client, token, fileId, answer.headers.get('etag'));
      expectCode(refused, 503, 'SCANNER_UNAVAILABLE');
      assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
      await clamd.start();
      const verified = await verify(client, token, fileId, answer.headers.get('etag'));
      assert.equal(verified.status, 200, verified.text);
      assert.equal(verified.body.meta.scan.result, 'clean');
    } finally {
      await clamd.start();
    }
  });

  it('scan=off: nothing is scanned, no meta.scan (the same bytes a scanning project refuses)', async () => {
    const scanning = await projectWith();
    const refused = await put(scanning.client, scanning.token, infected());
    assert.equal(refused.answer.status, 422);
    const { client, token } = await projectWith({ scan: 'off' });
    const { fileId, answer } = await put(client, token, infected());
    assert.equal(answer.status, 200);
    const verified = await verify(client, token, fileId, answer.headers.get('etag'));
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.scan, undefined);
  });
});

describe('malware scanning: fail-open and the scanner limit', { skip: clamdMissing ?? false }, () => {
  let clamd: Clamd;
  let limited: TestServer;
  let failOpen: TestServer;
  let projects = 0;
  before(async () => {
    clamd = await startClamd();
    limited = await startTestServer({}, { COFFER_SCAN_URL: clamd.url, COFFER_SCAN_MAX_BYTES: '1000' });
    // A socket nobody listens on: the scanner never answers.
    failOpen = await startTestServer(
      {},
      { COFFER_SCAN_URL: `${clamd.url}.absent`, COFFER_SCAN_FAIL_OPEN: 'true' },
    );
  });
  after(async () => {
    await limited?.stop();
    await failOpen?.stop();
    await clamd?.close();
  });
  const projectOn = async (server: TestServer, settings: Partial<ProjectSettings> = {}) => {
    const client = await server.createProject(`scan-limits-${projects++}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      ...settings,
    });
    return { client, token: (await client.signup()).token };
  };
  const putAndVerify = async (client: ApiClient, token: string, content: Buffer, declare = false) => {
    const requested = await client.call('POST', '/api/v1/file', {
      token,
      body: {
        filePath: `l/${randomBytes(4).toString('hex')}`,
        ...(declare && { contentLength: content.length }),
      },
    });
    assert.equal(requested.status, 200, requested.text);
    const sent = await fetch(requested.body.putFileUrl, { method: 'PUT', body: new Uint8Array(content) });
    const sentBody = await sent.json().catch(() => ({}));
    const verified = await client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag: sent.headers.get('etag') ?? '"none"' },
    });
    return { sent, sentBody, verified };
  };

  it('COFFER_SCAN_FAIL_OPEN=true: a scanner that cannot answer admits the file as skipped', async () => {
    const { client, token } = await projectOn(failOpen);
    const { sent, verified } = await putAndVerify(client, token, Buffer.from('admitted unscanned'));
    assert.equal(sent.status, 200);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.scan.result, 'skipped');
    assert.equal(verified.body.meta.scan.reason, 'unavailable');
  });

  it('past the scanner limit: 413 FILE_TOO_LARGE; scanOversize=allow admits it as skipped', async () => {
    const big = randomBytes(5000);
    const refused = await projectOn(limited);
    const streamed = await putAndVerify(refused.client, refused.token, big);
    assert.equal(streamed.sent.status, 413);
    assert.equal(streamed.sentBody.code, 'FILE_TOO_LARGE');
    const declared = await refused.client.call('POST', '/api/v1/file', {
      token: refused.token,
      body: { filePath: 'l/declared', contentLength: big.length },
    });
    assert.equal(declared.status, 200, declared.text);
    const early = await fetch(declared.body.putFileUrl, { method: 'PUT', body: new Uint8Array(big) });
    assert.equal(early.status, 413);
    const allowed = await projectOn(limited, { scanOversize: 'allow' });
    const { sent, verified } = await putAndVerify(allowed.client, allowed.token, big);
    assert.equal(sent.status, 200);
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual(
      { result: verified.body.meta.scan.result, reason: verified.body.meta.scan.reason },
      { result: 'skipped', reason: 'oversize' },
    );
    const small = await putAndVerify(allowed.client, allowed.token, Buffer.from('small and clean'));
    assert.equal(small.verified.body.meta.scan.result, 'clean');
  });
});

/** Bytes that went straight to S3 are read back once, at verify (direct PUT) or completion's verify (multipart). */
describe('malware scanning of direct S3 uploads', {
  skip:
    clamdMissing ?? (currentStackName() === 'pg-s3' ? false : 'needs S3: runs in the PostgreSQL + S3 pass'),
}, () => {
  let clamd: Clamd;
  let direct: TestServer;
  let proxied: TestServer;
  before(async () => {
    clamd = await startClamd();
    const env = { COFFER_SCAN_URL: clamd.url, COFFER_SCAN_MAX_BYTES: String(clamd.maxBytes) };
    direct = await startTestServer({}, { ...env, COFFER_UPLOAD_MODE: 'direct' });
    proxied = await startTestServer({}, env);
  });
  after(async () => {
    await direct?.stop();
    await proxied?.stop();
    await clamd?.close();
  });
  const verify = (server: TestServer, token: string, fileId: string, etag: string | null) =>
    server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });

  it('a direct PUT to S3: EICAR refused at verify, deleted, refused again on retry; clean bytes pass', async () => {
    const { token } = await direct.client.signup();
    const send = async (content: Buffer) => {
      const requested = await direct.client.call('POST', '/api/v1/file', {
        token,
        body: { filePath: `d/${randomBytes(4).toString('hex')}`, contentType: 'application/octet-stream' },
      });
      assert.equal(requested.status, 200, requested.text);
      assert.ok(!requested.body.putFileUrl.startsWith(direct.baseUrl), 'the link points at S3');
      const put = await fetch(requested.body.putFileUrl, {
        method: 'PUT',
        body: new Uint8Array(content),
        headers: { 'content-type': 'application/octet-stream' },
      });
      assert.equal(put.status, 200);
      return { fileId: requested.body.fileId as string, etag: put.headers.get('etag') };
    };
    const bad = await send(infected());
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await verify(direct, token, bad.fileId, bad.etag);
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.code, 'FILE_INFECTED');
      assert.ok(refused.body.details.signature.startsWith(eicarSignature));
    }
    const record = await direct.services.repositories.files.findById(bad.fileId);
    assert.equal(record?.verified, false);
    const kept = record?.pendingUpload;
    assert.ok(kept);
    assert.equal(
      await direct.services.blobs.get(`${record.projectId}/${bad.fileId}`, kept.blobVersion),
      undefined,
    );
    const good = await send(randomBytes(1000));
    const verified = await verify(direct, token, good.fileId, good.etag);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.scan.result, 'clean');
  });

  it('a direct PUT while the scanner is stopped: 503, and the bytes wait for a later verify', async () => {
    const { token } = await direct.client.signup();
    const requested = await direct.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'd/later.bin', contentType: 'application/octet-stream' },
    });
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: 'later',
      headers: { 'content-type': 'application/octet-stream' },
    });
    await clamd.stop();
    try {
      const refused = await verify(direct, token, requested.body.fileId, put.headers.get('etag'));
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.code, 'SCANNER_UNAVAILABLE');
    } finally {
      await clamd.start();
    }
    const verified = await verify(direct, token, requested.body.fileId, put.headers.get('etag'));
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.scan.result, 'clean');
  });

  it('a direct PUT past the quota while the scanner is stopped: refused, never kept for a later verify', async () => {
    const client = await direct.createProject(`direct-quota-${randomBytes(3).toString('hex')}`);
    const { projectId } = client.credentials;
    const current = await direct.services.repositories.projects.findById(projectId);
    await direct.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      userQuotaBytes: 100,
    });
    const { token, userId } = await client.signup();
    // No declared length: nothing was reserved, the bytes count only once recorded.
    const requested = await client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'd/too-big.bin', contentType: 'application/octet-stream' },
    });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: new Uint8Array(randomBytes(1000)),
      headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(put.status, 200);
    const etag = put.headers.get('etag');
    await clamd.stop();
    try {
      const refused = await client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
        token,
        body: { etag },
      });
      assert.equal(refused.status, 413, refused.text);
      assert.equal(refused.body.code, 'QUOTA_EXCEEDED');
    } finally {
      await clamd.start();
    }
    const usage = await direct.services.repositories.storageUsage.find({ projectId, userId });
    assert.ok(usage.user.bytes <= 100, `usage ${usage.user.bytes} past the quota`);
    const later = await client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag },
    });
    assert.notEqual(later.status, 200, later.text);
  });

  it('a multipart upload straight to S3: EICAR refused at verify after completion; clean parts pass', async () => {
    const { token } = await proxied.client.signup();
    const send = async (content: Buffer) => {
      const requested = await proxied.client.call('POST', '/api/v1/file', {
        token,
        body: { filePath: `m/${randomBytes(4).toString('hex')}`, contentLength: content.length },
      });
      assert.equal(requested.status, 200, requested.text);
      const fileId = requested.body.fileId as string;
      const started = await proxied.client.call('POST', `/api/v1/file/${fileId}/multipart`, { token });
      assert.equal(started.status, 200, started.text);
      const parts = await Promise.all(
        (started.body.parts as { partNumber: number; url: string }[]).map(async ({ partNumber, url }) => {
          const from = (partNumber - 1) * started.body.partSize;
          const body = new Uint8Array(content.subarray(from, from + started.body.partSize));
          const put = await fetch(url, { method: 'PUT', body });
          assert.equal(put.status, 200, await put.text());
          return { partNumber, etag: put.headers.get('etag') ?? '' };
        }),
      );
      const completed = await proxied.client.call('POST', `/api/v1/file/${fileId}/multipart/complete`, {
        token,
        body: { parts },
      });
      assert.equal(completed.status, 200, completed.text);
      return { fileId, etag: completed.body.etag as string };
    };
    const bad = await send(infected());
    const refused = await verify(proxied, token, bad.fileId, bad.etag);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'FILE_INFECTED');
    assert.equal((await verify(proxied, token, bad.fileId, bad.etag)).body.code, 'FILE_INFECTED');
    const good = await send(randomBytes(2000));
    const verified = await verify(proxied, token, good.fileId, good.etag);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.scan.result, 'clean');
  });
});
