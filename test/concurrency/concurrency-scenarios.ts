import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type ApiClient, type ApiResponse, toApiResponse } from '../support/api-client.ts';
import { expectedEtag } from '../support/byte-streams.ts';

/** A running Coffer: one in-process server, or `coffer serve --workers 2`. */
export type ConcurrencyTarget = { client: ApiClient; stop(): Promise<void> };

// A fresh connection per request: with --workers the kernel spreads them over the workers.
const fresh = { connection: 'close' };

/**
 * The concurrency suite, the same on every target: parallel shares, unshares, verifies and
 * PUTs to the same files. Nothing is lost, `__v` counts every change exactly once, one
 * request wins where one must, and nothing answers 5xx: 503 UNAVAILABLE is documented for
 * contention (a busy database), so it is retried, and the retry must succeed.
 * Builds on test/api/upload-races.test.ts, which pins the late-PUT and framing races.
 */
export function concurrencyScenarios(start: () => Promise<ConcurrencyTarget>): void {
  let target: ConcurrencyTarget;
  let client: ApiClient;
  let token: string;
  const contention: string[] = [];
  before(async () => {
    target = await start();
    client = target.client;
    token = (await client.signup()).token;
  });
  after(() => target?.stop());

  /** The answer once it is not 503 UNAVAILABLE; a 503 must clear within a few retries. */
  const settled = async (what: string, send: () => Promise<ApiResponse>): Promise<ApiResponse> => {
    for (let attempt = 0; ; attempt++) {
      const answer = await send();
      if (answer.status === 503 && attempt < 6) {
        assert.equal(answer.body?.code, 'UNAVAILABLE', answer.text);
        contention.push(`${what}: ${answer.body.message}`);
        await delay(25 * 2 ** attempt);
        continue;
      }
      assert.ok(answer.status < 500, `${answer.status} ${answer.text}`);
      return answer;
    }
  };
  const call = (method: string, path: string, body?: unknown) =>
    settled(`${method} ${path.replace(/[A-Za-z0-9_-]{16,}/g, ':id')}`, () =>
      client.call(method, path, { token, body, headers: fresh }),
    );
  const put = (url: string, body: Buffer) =>
    settled('PUT', async () =>
      toApiResponse(await fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: fresh })),
    );
  const requestUpload = async (filePath: string) => {
    const requested = await call('POST', '/api/v1/file', { filePath });
    assert.equal(requested.status, 200, requested.text);
    return requested.body as { fileId: string; putFileUrl: string };
  };
  const uploadVerified = async (filePath: string) => {
    const { fileId, putFileUrl } = await requestUpload(filePath);
    const stored = await put(putFileUrl, Buffer.from(filePath));
    assert.equal(stored.status, 200, stored.text);
    const verified = await call('POST', `/api/v1/file/${fileId}/verify`, {
      etag: stored.headers.get('etag'),
    });
    assert.equal(verified.status, 200, verified.text);
    return fileId;
  };
  const getRecord = async (fileId: string) => {
    const record = await call('GET', `/api/v1/file/${fileId}`);
    assert.equal(record.status, 200, record.text);
    return record.body as {
      __v: number;
      acl: { scope: string; identifier: string }[];
      etag: string;
      url: string;
    };
  };
  const roleNames = (acl: { scope: string; identifier: string }[]) =>
    new Set(acl.filter((entry) => entry.scope === 'role').map((entry) => entry.identifier));
  // Shares answer the record (200), unshares nothing (204, DELETE).
  const assertAll = (answers: ApiResponse[], status: number | number[]) =>
    assert.deepEqual(
      answers
        .filter((answer) => ![status].flat().includes(answer.status))
        .map((answer) => `${answer.status} ${answer.text}`),
      [],
    );

  it('parallel shares and unshares of one file lose none and count each change once in __v', async () => {
    const fileId = await uploadVerified('acl/mixed.txt');
    const leaving = Array.from({ length: 10 }, (_, index) => `leaving-${index}`);
    for (const role of leaving)
      assert.equal((await call('POST', `/api/v1/file/${fileId}/acl/role/${role}`)).status, 200);
    const before = await getRecord(fileId);
    const joining = Array.from({ length: 20 }, (_, index) => `joining-${index}`);
    const answers = await Promise.all([
      ...joining.map((role) => call('POST', `/api/v1/file/${fileId}/acl/role/${role}`)),
      ...leaving.map((role) => call('DELETE', `/api/v1/file/${fileId}/acl/role/${role}`)),
      // Duplicates racing the originals: exactly one of each pair of twins changes anything.
      ...Array.from({ length: 5 }, () => call('POST', `/api/v1/file/${fileId}/acl/role/${joining[0]}`)),
      ...Array.from({ length: 5 }, () => call('DELETE', `/api/v1/file/${fileId}/acl/role/${leaving[0]}`)),
    ]);
    assertAll(answers, [200, 204]);
    const after = await getRecord(fileId);
    assert.deepEqual(roleNames(after.acl), new Set(joining));
    assert.equal(after.acl.length, 1 + joining.length);
    assert.equal(after.__v, before.__v + joining.length + leaving.length);
  });

  it('parallel verifies of one file: one upload wins, __v rises once, the rest mismatch', async () => {
    for (let file = 0; file < 4; file++) {
      const { fileId, putFileUrl } = await requestUpload(`verify/file-${file}.bin`);
      const bodies = [1, 2, 3].map((fill) => Buffer.alloc(1000 * fill + file, fill));
      const stored = await Promise.all(bodies.map((body) => put(putFileUrl, body)));
      assertAll(stored, 200);
      const etags = stored.map((answer) => answer.headers.get('etag')!);
      const verifies = await Promise.all(
        etags.flatMap((etag) =>
          Array.from({ length: 4 }, () => call('POST', `/api/v1/file/${fileId}/verify`, { etag })),
        ),
      );
      const winners = new Set(
        verifies.filter((answer) => answer.status === 200).map((answer) => answer.body.etag),
      );
      assert.equal(winners.size, 1, `winning etags: ${[...winners]}`);
      for (const answer of verifies)
        if (answer.status !== 200) assert.equal(answer.body.code, 'ETAG_MISMATCH', answer.text);
      const record = await getRecord(fileId);
      assert.equal(record.__v, 1, 'verified once, however many verifies raced');
      const download = Buffer.from(await (await fetch(record.url)).arrayBuffer());
      assert.equal(expectedEtag(download), record.etag);
      assert.equal(record.etag, [...winners][0]);
    }
  });

  it('PUTs racing verify, shares and unshares on one file: the record and its bytes stay one', async (t) => {
    let putsRefused = 0;
    // File k sends its verify once k of the later PUTs were answered: from the second file on,
    // verify must lose (an upload replaced the one it names), and on the first it races them.
    for (let file = 0; file < 4; file++) {
      const { fileId, putFileUrl } = await requestUpload(`race/file-${file}.bin`);
      const first = Buffer.alloc(5000 + file, 'a');
      assert.equal((await put(putFileUrl, first)).status, 200);
      const leaving = ['old-0', 'old-1', 'old-2'];
      for (const role of leaving) await call('POST', `/api/v1/file/${fileId}/acl/role/${role}`);
      const later = [1, 2, 3, 4, 5].map((fill) => Buffer.alloc(2000 * fill, fill));
      const joining = Array.from({ length: 10 }, (_, index) => `new-${index}`);
      let answered = 0;
      let enoughAnswered!: () => void;
      const verifyNow = new Promise<void>((resolve) => (enoughAnswered = resolve));
      if (file === 0) enoughAnswered();
      const putting = later.map((body) =>
        put(putFileUrl, body).finally(() => {
          if (++answered === file) enoughAnswered();
        }),
      );
      const [verify, ...rest] = await Promise.all([
        verifyNow.then(() => call('POST', `/api/v1/file/${fileId}/verify`, { etag: expectedEtag(first) })),
        ...putting,
        ...joining.map((role) => call('POST', `/api/v1/file/${fileId}/acl/role/${role}`)),
        ...leaving.map((role) => call('DELETE', `/api/v1/file/${fileId}/acl/role/${role}`)),
      ]);
      const puts = rest.slice(0, later.length);
      assertAll(rest.slice(later.length), [200, 204]);
      for (const answer of puts)
        assert.ok(answer.status === 200 || answer.body?.code === 'ALREADY_VERIFIED', answer.text);
      let verifiedEtag = expectedEtag(first);
      if (file > 0) assert.equal(verify!.body.code, 'ETAG_MISMATCH', verify!.text);
      if (verify!.status !== 200) {
        // A PUT committed before verify compared: verify the upload that is pending now.
        assert.equal(verify!.body.code, 'ETAG_MISMATCH', verify!.text);
        const pending = puts
          .filter((answer) => answer.status === 200)
          .map((answer) => answer.headers.get('etag')!);
        const retried = await Promise.all(
          pending.map((etag) => call('POST', `/api/v1/file/${fileId}/verify`, { etag })),
        );
        const winners = pending.filter((_, index) => retried[index]!.status === 200);
        assert.equal(winners.length, 1, 'exactly the upload committed last is verifiable');
        verifiedEtag = winners[0]!;
      }
      const record = await getRecord(fileId);
      assert.equal(record.etag, verifiedEtag);
      assert.deepEqual(roleNames(record.acl), new Set(joining));
      // The three pre-shares, then each share, unshare and the verification exactly once.
      assert.equal(record.__v, leaving.length + joining.length + leaving.length + 1);
      const download = Buffer.from(await (await fetch(record.url)).arrayBuffer());
      assert.equal(expectedEtag(download), verifiedEtag);
      const refused = later.filter((_, index) => puts[index]!.status !== 200).map(expectedEtag);
      assert.ok(!refused.includes(verifiedEtag), 'a PUT answered ALREADY_VERIFIED became the file');
      putsRefused += refused.length;
    }
    t.diagnostic(`${putsRefused} of 20 PUTs ended after verify and were refused`);
  });

  it('a storm of PUTs to one link: each answers 200, the last committed verifies', async () => {
    const { fileId, putFileUrl } = await requestUpload('storm/one-link.bin');
    const bodies = Array.from({ length: 24 }, (_, index) => Buffer.alloc(100 + index * 997, index));
    const stored = await Promise.all(bodies.map((body) => put(putFileUrl, body)));
    assertAll(stored, 200);
    const etags = stored.map((answer) => answer.headers.get('etag')!);
    assert.deepEqual(etags, bodies.map(expectedEtag));
    const verifies = await Promise.all(
      etags.map((etag) => call('POST', `/api/v1/file/${fileId}/verify`, { etag })),
    );
    assert.equal(verifies.filter((answer) => answer.status === 200).length, 1);
    const record = await getRecord(fileId);
    const download = Buffer.from(await (await fetch(record.url)).arrayBuffer());
    assert.equal(expectedEtag(download), record.etag);
  });

  it('concurrent upload requests at one path: one 200, the rest 409 FILE_EXISTS', async () => {
    for (let path = 0; path < 4; path++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call('POST', '/api/v1/file', { filePath: `same/path-${path}.txt` })),
      );
      assert.equal(
        answers.filter((answer) => answer.status === 200).length,
        1,
        answers.map((a) => a.status).join(),
      );
      for (const answer of answers)
        if (answer.status !== 200) assert.equal(answer.body.code, 'FILE_EXISTS', answer.text);
    }
  });

  it('a delete racing shares, PUTs and verify: every answer is a clean 2xx or 4xx, and the file is gone', async () => {
    for (let file = 0; file < 4; file++) {
      const { fileId, putFileUrl } = await requestUpload(`delete/file-${file}.bin`);
      const first = Buffer.alloc(3000, file);
      assert.equal((await put(putFileUrl, first)).status, 200);
      const answers = await Promise.all([
        call('DELETE', `/api/v1/file/${fileId}`),
        call('POST', `/api/v1/file/${fileId}/verify`, { etag: expectedEtag(first) }),
        put(putFileUrl, Buffer.alloc(4000, 9)),
        ...Array.from({ length: 6 }, (_, index) => call('POST', `/api/v1/file/${fileId}/acl/role/r${index}`)),
      ]);
      assert.equal(answers[0]!.status, 204, answers[0]!.text);
      for (const answer of answers.slice(1))
        assert.ok(
          answer.status === 200 ||
            ['FILE_NOT_FOUND', 'ALREADY_VERIFIED', 'ETAG_MISMATCH'].includes(answer.body?.code),
          `${answer.status} ${answer.text}`,
        );
      assert.equal((await call('GET', `/api/v1/file/${fileId}`)).body.code, 'FILE_NOT_FOUND');
    }
  });

  it('reports how often the database was contended (503, then success on retry)', (t) => {
    t.diagnostic(
      `503 UNAVAILABLE answers retried: ${contention.length} ${JSON.stringify([...new Set(contention)])}`,
    );
  });
}
