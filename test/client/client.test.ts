import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, CofferError, type Session } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

// @coffer/client in Node against a real server (the browser side: client-browser.test.ts).
describe('@coffer/client in Node', () => {
  const clock = new ManualClock();
  let server: TestServer;
  const newClient = (extra: Partial<ConstructorParameters<typeof CofferClient>[0]> = {}) =>
    new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
      ...extra,
    });
  before(async () => {
    server = await startTestServer({}, {}, { clock });
  });
  after(() => server.stop());

  it('signs up, uploads in one call with progress, reads, downloads, shares and unshares', async () => {
    const alice = newClient();
    const bob = newClient();
    await alice.signup({ email: 'alice@client.example', password: 'correct horse' });
    const bobSession = await bob.signup({ email: 'bob@client.example', password: 'battery staple' });
    const content = new Uint8Array(300_000).map((_, index) => index % 251);
    const progress: number[] = [];
    const file = await alice.upload('client/data.bin', content, {
      onProgress: ({ loadedBytes, totalBytes }) => {
        assert.equal(totalBytes, content.length);
        progress.push(loadedBytes);
      },
    });
    assert.equal(file.verified, true);
    assert.equal(file.meta.ContentLength, String(content.length));
    assert.ok(progress.length > 1, 'several progress events');
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
      'progress only grows',
    );
    assert.equal(progress.at(-1), content.length);

    const downloaded = new Uint8Array(await (await alice.download(file._id)).arrayBuffer());
    assert.deepEqual(downloaded, content);

    await assert.rejects(bob.get(file._id), (error: CofferError) => {
      assert.ok(error instanceof CofferError);
      assert.deepEqual([error.status, error.code], [403, 'ACCESS_DENIED']);
      return true;
    });
    await alice.share(file._id, { userId: bobSession.userId });
    assert.equal((await bob.get(file._id))._id, file._id);
    await alice.unshare(file._id, { userId: bobSession.userId });
    await assert.rejects(bob.get(file._id), { code: 'ACCESS_DENIED' });
    await alice.delete(file._id);
    await assert.rejects(alice.get(file._id), { code: 'FILE_NOT_FOUND' });
  });

  it('lists every readable file as an async iterator over pages', async () => {
    const carol = newClient();
    await carol.signup({ email: 'carol@client.example', password: 'correct horse' });
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      ids.push((await carol.upload(`list/${index}.txt`, `file ${index}`))._id);
      clock.advance(1); // newest first: one second apart on the server's clock
    }
    const listed: string[] = [];
    for await (const file of carol.list({ pageSize: 2, filePath: 'list/' })) listed.push(file._id);
    assert.deepEqual(listed, ids.reverse());
  });

  it('refreshes an expired token by itself, once for concurrent calls, and reports the new session', async () => {
    const sessions: (Session | undefined)[] = [];
    const dave = newClient({ onSession: (session) => sessions.push(session) });
    const first = await dave.signup({ email: 'dave@client.example', password: 'correct horse' });
    clock.advance(3700); // past the access token's hour, well within the refresh token's 30 days
    const [a, b] = await Promise.all([dave.profile(), dave.profile()]);
    assert.equal(a._id, first.userId);
    assert.equal(b._id, first.userId);
    assert.equal(sessions.length, 2, 'signup, then one refresh');
    assert.notEqual(sessions[1]?.token, first.token);
    await dave.logout();
    assert.equal(dave.session, undefined);
    await assert.rejects(dave.profile(), { code: 'AUTH_REQUIRED' });
  });

  it('tries a PUT the network dropped again, and gives up after its retries', async () => {
    const erin = newClient();
    await erin.signup({ email: 'erin@client.example', password: 'correct horse' });
    let puts = 0;
    let dropsLeft = 0;
    // The network drops PUTs before they reach the server (fetch fails), as a flaky link would.
    const flaky = newClient({
      session: erin.session,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method === 'PUT') {
          puts++;
          if (dropsLeft-- > 0) throw new TypeError('connection reset');
        }
        return fetch(input, init);
      }) as typeof fetch,
    });
    dropsLeft = 2;
    const record = await flaky.upload('retry/ok.txt', 'made it', { retries: 3 });
    assert.equal(record.verified, true);
    assert.equal(puts, 3);
    puts = 0;
    dropsLeft = 5;
    await assert.rejects(flaky.upload('retry/lost.txt', 'never', { retries: 1 }), {
      code: 'NETWORK_ERROR',
      status: 0,
    });
    assert.equal(puts, 2);
    // A refusal is final: no retry changes a bad path.
    await assert.rejects(erin.upload('../escape.txt', 'nope'), { code: 'INVALID_FILE_PATH', status: 400 });
  });
});
