import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toStorageKey } from '../../src/domain/files/storage-key.ts';
import { UnverifiedSweeper } from '../../src/domain/files/unverified-sweeper.ts';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

/** Issue 10, item 11: expired never-verified records and their bytes are removed after a grace period. */
describe('sweeping expired never-verified uploads', () => {
  const clock = new ManualClock();
  const graceSeconds = 600;
  let server: TestServer;
  let token: string;
  let account: { email: string; password: string; token: string };
  before(async () => {
    server = await startTestServer({}, { COFFER_UNVERIFIED_GRACE_SECONDS: String(graceSeconds) }, { clock });
    account = await server.client.signup();
    token = account.token;
  });
  /** Moves the clock on, and logs in again on it (access tokens live one hour). */
  const advance = async (seconds: number) => {
    clock.advance(seconds);
    const login = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email: account.email, password: account.password },
    });
    assert.equal(login.status, 200, login.text);
    token = login.body.token;
  };
  after(() => server.stop());

  /** An upload request, and optionally a PUT of `content`: the record and the PUT's etag. */
  const requestUpload = async (filePath: string, content?: string) => {
    const requested = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    let etag: string | undefined;
    if (content !== undefined) {
      const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: content });
      assert.equal(put.status, 200);
      etag = put.headers.get('etag') ?? undefined;
    }
    return { id: requested.body.fileId as string, expiresAt: requested.body.expiresAt as number, etag };
  };
  const get = (id: string) => server.client.call('GET', `/api/v1/file/${id}`, { token });
  const verify = (id: string, etag: string) =>
    server.client.call('POST', `/api/v1/file/${id}/verify`, { token, body: { etag } });
  const pendingVersionOf = async (id: string) =>
    (await server.services.repositories.files.findById(id))?.pendingUpload?.blobVersion;
  const bytesExist = async (id: string, version: string) =>
    (await server.services.blobs.head(
      toStorageKey({ projectId: server.credentials.projectId, id }),
      version,
    )) !== undefined;

  it('removes records whose link expired more than the grace ago, with their bytes; keeps the rest', async () => {
    const withBytes = await requestUpload('sweep/with-bytes.txt', 'abandoned bytes');
    const version = await pendingVersionOf(withBytes.id);
    assert.ok(version);
    const without = await requestUpload('sweep/without-bytes.txt');
    const kept = await server.client.uploadFile(token, 'sweep/verified.txt', 'kept');
    // At the last second of the grace nothing goes: the link expired exactly `grace` ago.
    await advance(withBytes.expiresAt + graceSeconds - clock.seconds);
    const fresh = await requestUpload('sweep/fresh.txt', 'still in time');
    assert.deepEqual(await server.services.unverifiedSweeper.sweep(), {
      removed: 0,
      bytesRemoved: 0,
      failedByteRemovals: 0,
    });
    await advance(1);
    const report = await server.services.unverifiedSweeper.sweep();
    assert.deepEqual(report, { removed: 2, bytesRemoved: 1, failedByteRemovals: 0 });
    assert.equal((await get(withBytes.id)).body.code, 'FILE_NOT_FOUND');
    assert.equal((await get(without.id)).body.code, 'FILE_NOT_FOUND');
    assert.equal(await bytesExist(withBytes.id, version), false, 'the bytes went with the record');
    assert.equal((await get(kept._id)).status, 200, 'verified files stay');
    assert.equal(
      (await get(fresh.id)).body.code,
      'FILE_NOT_VERIFIED',
      'a record still within its grace stays',
    );
    // The path is free again.
    await requestUpload('sweep/with-bytes.txt');
  });

  it('works in bounded batches: a pass stops after maxBatches, the next one goes on', async () => {
    // What the test before left behind goes first: this one counts its own records.
    await advance(server.services.config.uploadLinkTtlSeconds + graceSeconds + 1);
    await server.services.unverifiedSweeper.sweep();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await requestUpload(`batches/${i}.txt`, `bytes ${i}`)).id);
    await advance(server.services.config.uploadLinkTtlSeconds + graceSeconds + 1);
    const sweeper = new UnverifiedSweeper({
      files: server.services.repositories.files,
      blobs: server.services.blobs,
      clock,
      graceSeconds,
      batchSize: 2,
    });
    assert.equal((await sweeper.sweep({ maxBatches: 1 })).removed, 2);
    assert.equal((await sweeper.sweep({ maxBatches: 1 })).removed, 2);
    assert.equal((await sweeper.sweep()).removed, 1, 'the rest');
    for (const id of ids) assert.equal((await get(id)).body.code, 'FILE_NOT_FOUND');
  });

  it('a verify racing the sweep either keeps its file whole or answers FILE_NOT_FOUND', async () => {
    const uploads: Array<{ id: string; etag?: string }> = [];
    for (let i = 0; i < 12; i++) uploads.push(await requestUpload(`race/${i}.txt`, `race ${i}`));
    await advance(server.services.config.uploadLinkTtlSeconds + graceSeconds + 1);
    const [sweep, ...verifies] = await Promise.all([
      server.services.unverifiedSweeper.sweep(),
      ...uploads.map((upload) => verify(upload.id, upload.etag!)),
    ]);
    let kept = 0;
    for (const [i, answer] of verifies.entries()) {
      const raced = uploads[i]!;
      if (answer.status === 200) {
        kept++;
        const got = await get(raced.id);
        assert.equal(got.status, 200, got.text);
        const body = await (await fetch(got.body.url)).text();
        assert.equal(body, `race ${i}`, 'a verified record has its bytes');
      } else {
        assert.equal(answer.body.code, 'FILE_NOT_FOUND', answer.text);
        assert.equal((await get(raced.id)).body.code, 'FILE_NOT_FOUND');
      }
    }
    assert.equal(sweep!.removed + kept, uploads.length, 'every record was swept or verified, once');
  });
});

describe('serve sweeps by itself and logs how many it removed', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess({
      env: {
        COFFER_UPLOAD_LINK_TTL_SECONDS: '1',
        COFFER_UNVERIFIED_GRACE_SECONDS: '0',
        COFFER_UNVERIFIED_SWEEP_INTERVAL_SECONDS: '1',
      },
    });
  });
  after(() => coffer?.stop());

  it('removes an abandoned upload once its link expired', async () => {
    const { token } = await coffer.client.signup();
    const from = coffer.output().length;
    const requested = await coffer.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'abandoned.txt' },
    });
    assert.equal(requested.status, 200, requested.text);
    const line = await coffer.waitForOutput(/"removed":(\d+)[^\n]*removed expired unverified uploads/, from);
    assert.ok(Number(line[1]) >= 1);
    const got = await coffer.client.call('GET', `/api/v1/file/${requested.body.fileId}`, { token });
    assert.equal(got.body.code, 'FILE_NOT_FOUND');
  });
});
