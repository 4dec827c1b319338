import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CofferClient,
  type FileRecord,
  fileResumeStore,
  type ResumeState,
  type ResumeStore,
  type UploadProgress,
} from '../../packages/client/src/index.ts';
import { startCuttingProxy } from '../support/cutting-proxy.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const MiB = 1024 * 1024;
/** Small chunks, a low threshold: several PATCHes for a few MiB. */
const resumable = { resumableThresholdBytes: MiB, chunkSizeBytes: MiB };

/** Bytes that differ from offset to offset, the same on every run. */
const bytesOf = (length: number, seed = 0) =>
  new Uint8Array(length).map((_, index) => (index * 31 + (index >> 12) + seed) & 255);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

/** What the client asked of the server: `METHOD /path`, the upload requests' bodies, PATCH offsets. */
class RequestLog {
  lines: string[] = [];
  /** Each line's answer status, in the same order (0 until it answers, or when it failed). */
  statuses: number[] = [];
  uploadRequests: Record<string, unknown>[] = [];
  patchOffsets: number[] = [];

  /** A fetch that writes the log, and sends the data plane's requests through `route` (a proxy). */
  fetch(route: (url: string) => string = (url) => url): typeof fetch {
    return (input, init = {}) => {
      const url = new URL(String(input));
      const headers = new Headers(init.headers);
      this.lines.push(`${init.method ?? 'GET'} ${url.pathname}`);
      if (init.method === 'POST' && url.pathname === '/api/v1/file')
        this.uploadRequests.push(JSON.parse(String(init.body)));
      if (init.method === 'PATCH') this.patchOffsets.push(Number(headers.get('upload-offset')));
      const blob = url.pathname.startsWith('/blob/');
      const index = this.statuses.push(0) - 1;
      return fetch(blob ? route(url.toString()) : url, init).then((response) => {
        this.statuses[index] = response.status;
        return response;
      });
    };
  }

  count(method: string, prefix: string): number {
    return this.lines.filter((line) => line.startsWith(`${method} ${prefix}`)).length;
  }
}

/** A resume store the test can read: a map, as an app's own store would be. */
class MapResumeStore implements ResumeStore {
  states = new Map<string, ResumeState>();
  get = (key: string) => this.states.get(key);
  set = (key: string, state: ResumeState) => void this.states.set(key, state);
  delete = (key: string) => void this.states.delete(key);
  only(): ResumeState {
    assert.equal(this.states.size, 1, 'one upload remembered');
    return [...this.states.values()][0]!;
  }
}

/** The record is verified and holds exactly `content`. */
async function assertHolds(client: CofferClient, file: FileRecord, content: Uint8Array) {
  assert.equal(file.verified, true);
  assert.equal(file.meta.ContentLength, String(content.length));
  assert.equal(file.meta.ChecksumSHA256, sha256(content));
  const downloaded = new Uint8Array(await (await client.download(file._id)).arrayBuffer());
  assert.equal(sha256(downloaded), sha256(content));
}

// Issue 20, "Clients": @coffer/client's upload() resumes by itself above a size threshold.
describe('@coffer/client resumable uploads in Node', () => {
  let server: TestServer;
  let users = 0;
  const newClient = async (fetchThrough?: typeof fetch) => {
    const client = new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
      ...(fetchThrough && { fetch: fetchThrough }),
    });
    await client.signup({ email: `resume-${users++}@client.example`, password: 'correct horse' });
    return client;
  };
  /** Another client (a reloaded page) on the same session. */
  const sameUser = (client: CofferClient, fetchThrough?: typeof fetch) =>
    new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
      session: client.session,
      ...(fetchThrough && { fetch: fetchThrough }),
    });
  const head = async (url: string) => {
    const answer = await fetch(url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    return { status: answer.status, offset: Number(answer.headers.get('upload-offset')) };
  };
  /** Starts an upload of `content` and aborts it once `abortAt` bytes have gone: its state is left in `store`. */
  const interrupted = async (
    client: CofferClient,
    filePath: string,
    content: Uint8Array,
    abortAt: number,
  ) => {
    const store = new MapResumeStore();
    const stop = new AbortController();
    const upload = client.upload(filePath, content, {
      ...resumable,
      resumeStore: store,
      signal: stop.signal,
      onProgress: ({ loadedBytes }) => {
        if (loadedBytes >= abortAt) stop.abort();
      },
    });
    await assert.rejects(upload, { name: 'AbortError' });
    return store;
  };

  // Clients without a store of their own keep states in ~/.coffer in Node: a home of this file's own.
  const realHome = process.env.HOME;
  let home: string;
  before(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'coffer-home-'));
    process.env.HOME = home;
    server = await startTestServer();
  });
  after(async () => {
    process.env.HOME = realHome;
    await rm(home, { recursive: true, force: true });
    await server?.stop();
  });

  it('an upload aborted mid-way goes on from the offset the server kept, and verifies', async () => {
    const alice = await newClient();
    const content = bytesOf(6 * MiB + 123);
    const store = await interrupted(alice, 'resume/aborted.bin', content, 2.5 * MiB);
    const { fileId, resumableUrl } = store.only();
    const kept = await head(resumableUrl);
    assert.equal(kept.status, 200);
    assert.ok(kept.offset >= 2 * MiB, `the two whole chunks are kept (${kept.offset})`);

    const log = new RequestLog();
    const progress: UploadProgress[] = [];
    const resumedAt: number[] = [];
    const reloaded = sameUser(alice, log.fetch());
    const file = await reloaded.upload('resume/aborted.bin', content, {
      ...resumable,
      resumeStore: store,
      onProgress: (event) => progress.push(event),
      onResume: (offsetBytes) => resumedAt.push(offsetBytes),
    });
    assert.equal(file._id, fileId, 'the same record, not a new upload');
    await assertHolds(alice, file, content);
    assert.deepEqual(log.uploadRequests, [], 'no new upload request');
    assert.equal(log.count('PUT', '/'), 0);
    assert.ok(log.lines[0]?.startsWith('HEAD /blob/v1/uploads/'), 'asks the offset first');
    assert.ok(Math.min(...log.patchOffsets) >= kept.offset, `no byte before ${kept.offset} sent again`);
    assert.equal(resumedAt.length, 1);
    assert.ok(resumedAt[0]! >= kept.offset);
    assert.ok(progress[0]!.loadedBytes >= kept.offset, `progress starts at ${progress[0]!.loadedBytes}`);
    assert.deepEqual(
      progress.map((event) => event.loadedBytes),
      progress.map((event) => event.loadedBytes).sort((a, b) => a - b),
      'progress only grows',
    );
    assert.equal(progress.at(-1)?.loadedBytes, content.length);
    assert.equal(store.states.size, 0, 'the state is dropped once verified');
  });

  it('a connection cut mid-PATCH: the same call asks the offset again and finishes', async () => {
    const content = bytesOf(4 * MiB + 5, 7);
    // The first chunk gets through, the second is cut about half way.
    const proxy = await startCuttingProxy(server.baseUrl, Math.floor(1.5 * MiB));
    try {
      const log = new RequestLog();
      const bob = await newClient(log.fetch(proxy.url));
      const file = await bob.upload('resume/cut.bin', content, {
        ...resumable,
        resumeStore: new MapResumeStore(),
      });
      assert.equal(proxy.cuts(), 1);
      await assertHolds(bob, file, content);
      // Once to begin, once after the cut; again only after an answer that asks for a retry: a
      // busy server may not have seen the cut yet (423: the cut PATCH still holds the lock).
      const heads = log.count('HEAD', '/blob/v1/uploads/');
      const unanswered = log.statuses.filter((status) => status === 0).length - 1; // but the cut
      const retriesAsked =
        log.statuses.filter((status) => status === 423 || status === 409 || status >= 500).length +
        Math.max(0, unanswered);
      assert.ok(
        heads >= 2 && heads <= 2 + retriesAsked,
        `once to begin, once after the cut: ${log.lines.map((line, i) => `${line} ${log.statuses[i]}`)}`,
      );
      assert.equal(log.patchOffsets[0], 0);
      assert.ok(
        log.patchOffsets.slice(1).every((offset) => offset >= MiB),
        `never from 0 again: ${log.patchOffsets}`,
      );
    } finally {
      await proxy.stop();
    }
  });

  it('resumeUpload goes on with a resumableUrl the app kept', async () => {
    const carol = await newClient();
    const content = bytesOf(3 * MiB + 1, 3);
    const token = carol.session!.token;
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'resume/known.bin', contentLength: content.length, resumable: true },
    });
    assert.equal(requested.status, 200, requested.text);
    const { fileId, resumableUrl } = requested.body as { fileId: string; resumableUrl: string };
    const firstPart = content.subarray(0, 1.5 * MiB);
    const patched = await fetch(resumableUrl, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: firstPart,
    });
    assert.equal(patched.status, 204);

    const progress: number[] = [];
    const file = await carol.resumeUpload({ fileId, resumableUrl }, content, {
      chunkSizeBytes: MiB,
      onProgress: ({ loadedBytes }) => progress.push(loadedBytes),
    });
    assert.equal(file._id, fileId);
    assert.equal(progress[0], firstPart.length, 'progress starts where the server stood');
    await assertHolds(carol, file, content);
  });

  it('a body up to the threshold still goes in one PUT; one byte more goes resumably', async () => {
    const log = new RequestLog();
    const dave = await newClient(log.fetch());
    const small = bytesOf(MiB);
    await assertHolds(dave, await dave.upload('resume/small.bin', small, resumable), small);
    assert.deepEqual(log.uploadRequests, [{ filePath: 'resume/small.bin', permissionScope: 'user' }]);
    assert.equal(log.count('PUT', '/blob/v1/files/'), 1);
    assert.equal(log.count('PATCH', '/') + log.count('HEAD', '/'), 0);

    const larger = bytesOf(MiB + 1);
    const file = await dave.upload('resume/larger.bin', larger, {
      ...resumable,
      contentType: 'image/x-test',
    });
    await assertHolds(dave, file, larger);
    assert.deepEqual(log.uploadRequests.at(-1), {
      filePath: 'resume/larger.bin',
      permissionScope: 'user',
      contentType: 'image/x-test',
      contentLength: MiB + 1,
      resumable: true,
    });
    assert.equal(file.meta.ContentType, 'image/x-test');
    assert.equal(log.count('PUT', '/'), 1, 'no PUT for the larger body');
    assert.equal(log.count('PATCH', '/blob/v1/uploads/'), 2);
  });

  it('a remembered upload whose URL is gone (links revoked) starts afresh, once, from 0', async () => {
    const erin = await newClient();
    const content = bytesOf(3 * MiB, 11);
    const store = await interrupted(erin, 'resume/revoked.bin', content, 1.5 * MiB);
    const stale = store.only();
    const token = erin.session!.token;
    const revoked = await server.client.call('POST', `/api/v1/file/${stale.fileId}/links/revoke`, { token });
    assert.equal(revoked.status, 204, revoked.text);
    assert.equal((await head(stale.resumableUrl)).status, 404);

    const progress: number[] = [];
    const resumedAt: number[] = [];
    const file = await erin.upload('resume/revoked.bin', content, {
      ...resumable,
      resumeStore: store,
      onProgress: ({ loadedBytes }) => progress.push(loadedBytes),
      onResume: (offsetBytes) => resumedAt.push(offsetBytes),
    });
    assert.notEqual(file._id, stale.fileId, 'a new upload');
    assert.equal(progress[0], 0, 'from the first byte');
    assert.deepEqual(resumedAt, []);
    await assertHolds(erin, file, content);
    await assert.rejects(erin.get(stale.fileId), { code: 'FILE_NOT_FOUND' }, 'the stale record is gone');
    assert.equal(store.states.size, 0);
  });

  it('after the app restarts: a new client on the same store folder goes on from the offset the server kept', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'coffer-resume-'));
    try {
      const options = {
        baseUrl: server.baseUrl,
        appId: server.credentials.appId,
        appSecret: server.credentials.appSecret,
        resumeStore: fileResumeStore(folder),
      };
      const before = new CofferClient(options);
      await before.signup({ email: `restart-${users++}@client.example`, password: 'correct horse' });
      const content = bytesOf(3 * MiB + 17, 5);
      const stop = new AbortController();
      const first = before.upload('resume/restart.bin', content, {
        ...resumable,
        signal: stop.signal,
        onProgress: ({ loadedBytes }) => {
          if (loadedBytes >= 1.5 * MiB) stop.abort();
        },
      });
      await assert.rejects(first, { name: 'AbortError' });
      const [stateFile] = await readdir(folder);
      assert.ok(stateFile, 'the state is in a file of the folder');
      assert.equal((await stat(path.join(folder, stateFile))).mode & 0o777, 0o600);

      // The restarted app: a new client object, the same session and store folder, no state in memory.
      const log = new RequestLog();
      const after = new CofferClient({ ...options, session: before.session, fetch: log.fetch() });
      const resumedAt: number[] = [];
      const file = await after.upload('resume/restart.bin', content, {
        ...resumable,
        onResume: (offsetBytes) => resumedAt.push(offsetBytes),
      });
      await assertHolds(after, file, content);
      assert.deepEqual(log.uploadRequests, [], 'no new upload request');
      assert.equal(resumedAt.length, 1);
      assert.ok(resumedAt[0]! >= MiB, `resumed at ${resumedAt[0]}`);
      assert.ok(Math.min(...log.patchOffsets) >= resumedAt[0]!, 'no byte before the offset sent again');
      assert.deepEqual(await readdir(folder), [], 'the state is dropped once verified');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("in Node, a client's default store is files under ~/.coffer/resumable-uploads", async () => {
    // os.homedir() reads HOME: this file's own (before()).
    try {
      const grace = await newClient();
      const content = bytesOf(2 * MiB + 3, 9);
      const stop = new AbortController();
      const first = grace.upload('resume/default-store.bin', content, {
        ...resumable,
        signal: stop.signal,
        onProgress: ({ loadedBytes }) => {
          if (loadedBytes >= MiB) stop.abort();
        },
      });
      await assert.rejects(first, { name: 'AbortError' });
      const folder = path.join(home, '.coffer', 'resumable-uploads');
      assert.equal((await readdir(folder)).length, 1);
      const log = new RequestLog();
      const file = await sameUser(grace, log.fetch()).upload('resume/default-store.bin', content, resumable);
      await assertHolds(grace, file, content);
      assert.deepEqual(log.uploadRequests, [], 'the new client found the state on disk');
      assert.deepEqual(await readdir(folder), [], 'the state is dropped once verified');
    } finally {
      await rm(path.join(home, '.coffer'), { recursive: true, force: true });
    }
  });

  it('a client whose state was lost takes over the unfinished upload the server answers for the same request, if it holds no byte yet', async () => {
    const henry = await newClient();
    const content = bytesOf(MiB + 9, 4);
    // The request went out and was answered, then the app died before it kept the state.
    const requested = await server.client.call('POST', '/api/v1/file', {
      token: henry.session!.token,
      body: {
        filePath: 'resume/lost-state.bin',
        permissionScope: 'user',
        contentType: 'application/octet-stream',
        contentLength: content.length,
        resumable: true,
      },
    });
    assert.equal(requested.status, 200, requested.text);
    const file = await henry.upload('resume/lost-state.bin', content, {
      ...resumable,
      resumeStore: new MapResumeStore(),
    });
    assert.equal(file._id, requested.body.fileId, 'the same record');
    await assertHolds(henry, file, content);
  });

  it('other bytes of the same size under the same path never go into an upload they did not begin', async () => {
    const frank = await newClient();
    const first = bytesOf(2 * MiB, 1);
    const store = await interrupted(frank, 'resume/edited.bin', first, 1.2 * MiB);
    const { resumableUrl } = store.only();
    // The unfinished upload still holds its path: the other bytes are refused as any upload to it.
    const other = bytesOf(2 * MiB, 2);
    await assert.rejects(frank.upload('resume/edited.bin', other, { ...resumable, resumeStore: store }), {
      code: 'FILE_EXISTS',
    });
    // No byte of the other went in: the upload resumed from the server's offset holds exactly
    // the first bytes. (Its offset alone proves nothing here: the server still keeps what it had
    // received of the PATCH the interruption cut, and may commit that a moment after a HEAD.)
    assert.ok((await head(resumableUrl)).offset < first.length, 'the upload is still unfinished');
    const file = await frank.upload('resume/edited.bin', first, { ...resumable, resumeStore: store });
    await assertHolds(frank, file, first);
  });
});
