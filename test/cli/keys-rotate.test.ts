import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

const tokenKeyId = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid as string;
const linkKeyId = (url: string) => new URL(url).searchParams.get('kid')!;

describe('coffer keys rotate, with a server running under requests', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess({ args: ['--workers', '2'] });
  });
  after(() => coffer.stop());
  const cli = (...args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);

  it('new tokens and links take the new keys; old ones keep working; no request fails meanwhile', async () => {
    const user = await coffer.client.signup();
    const upload = async (token: string, filePath: string) => {
      const answer = await coffer.client.call('POST', '/api/v1/file', { token, body: { filePath } });
      assert.equal(answer.status, 200, answer.text);
      return answer.body.putFileUrl as string;
    };
    const oldLink = await upload(user.token, 'old.txt');
    const login = async () => {
      const answer = await coffer.client.call('POST', '/api/v1/auth/login', {
        body: { email: user.email, password: user.password },
        headers: { connection: 'close' },
      });
      assert.equal(answer.status, 200, answer.text);
      return answer.body.token as string;
    };
    // Requests on fresh connections (both workers) while the keys rotate: each must succeed.
    let running = true;
    const failures: string[] = [];
    const load = (async () => {
      for (let round = 0; running; round++) {
        const token = round % 2 === 0 ? user.token : await login();
        const answer = await coffer.client.call('GET', '/api/v1/user', {
          token,
          headers: { connection: 'close' },
        });
        if (answer.status !== 200) failures.push(answer.text);
      }
    })();
    try {
      const rotated = await cli('keys', 'rotate', '--json');
      assert.equal(rotated.code, 0, rotated.stderr);
      const keys = JSON.parse(rotated.stdout).rotated as {
        purpose: string;
        keyId: string;
        verifying: string[];
      }[];
      assert.deepEqual(
        keys.map((key) => key.purpose),
        ['token', 'link'],
      );
      const [tokenKey, linkKey] = keys;
      assert.deepEqual(tokenKey!.verifying, [tokenKeyId(user.token)]);
      assert.deepEqual(linkKey!.verifying, [linkKeyId(oldLink)]);
      for (
        const deadline = Date.now() + 20_000;
        tokenKeyId(await login()) !== tokenKey!.keyId;
        await delay(100)
      )
        assert.ok(Date.now() < deadline, 'new tokens are still signed with the old key');
      const newToken = await login();
      for (const deadline = Date.now() + 20_000; ; await delay(100)) {
        if (linkKeyId(await upload(newToken, `new-${Date.now()}.txt`)) === linkKey!.keyId) break;
        assert.ok(Date.now() < deadline, 'new links are still signed with the old key');
      }
      const put = await fetch(oldLink, {
        method: 'PUT',
        body: 'old link',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(put.status, 200, await put.text());
      const profile = await coffer.client.call('GET', '/api/v1/user', { token: user.token });
      assert.equal(profile.status, 200, profile.text);
    } finally {
      running = false;
      await load;
    }
    assert.deepEqual(failures, []);
  });

  it('--purpose token rotates the token key only; a wrong --purpose exits 2', async () => {
    const rotated = await cli('keys', 'rotate', '--purpose', 'token', '--json');
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.deepEqual(
      JSON.parse(rotated.stdout).rotated.map((key: { purpose: string }) => key.purpose),
      ['token'],
    );
    const text = await cli('keys', 'rotate', '--purpose', 'link');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^link key link-\S+ signs from /);
    const wrong = await cli('keys', 'rotate', '--purpose', 'everything');
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--purpose/);
  });

  it('after a leak, --retire-old refuses old tokens and links at once; a refresh gets a new token', async () => {
    const user = await coffer.client.signup();
    const requested = await coffer.client.call('POST', '/api/v1/file', {
      token: user.token,
      body: { filePath: 'leaked.txt' },
    });
    const oldLink = requested.body.putFileUrl as string;
    const rotated = await cli('keys', 'rotate', '--retire-old', '--json');
    assert.equal(rotated.code, 0, rotated.stderr);
    const [tokenKey, linkKey] = JSON.parse(rotated.stdout).rotated;
    assert.ok(tokenKey.deleted.includes(tokenKeyId(user.token)));
    assert.ok(linkKey.deleted.includes(linkKeyId(oldLink)));
    assert.deepEqual([tokenKey.verifying, linkKey.verifying], [[], []]);
    const answers = async () => {
      const profile = await coffer.client.call('GET', '/api/v1/user', {
        token: user.token,
        headers: { connection: 'close' },
      });
      const put = await fetch(oldLink, {
        method: 'PUT',
        body: 'x',
        headers: { 'content-type': 'text/plain' },
      });
      return `${profile.body?.code} ${((await put.json()) as { code?: string }).code}`;
    };
    for (
      const deadline = Date.now() + 20_000;
      (await answers()) !== 'INVALID_TOKEN INVALID_SIGNATURE';
      await delay(100)
    )
      assert.ok(Date.now() < deadline, 'the retired keys still verify');
    const refreshed = await coffer.client.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    });
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(tokenKeyId(refreshed.body.token), tokenKey.keyId);
    const profile = await coffer.client.call('GET', '/api/v1/user', { token: refreshed.body.token });
    assert.equal(profile.status, 200, profile.text);
  });
});
