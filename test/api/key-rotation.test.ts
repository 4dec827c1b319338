import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { toKeyLifetimes } from '../../src/domain/keys/key-lifetimes.ts';
import { keyRetirementMarginMs } from '../../src/domain/keys/key-schedule.ts';
import { rotateSigningKeys } from '../../src/domain/keys/rotate-signing-keys.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { currentStackName } from '../support/test-stack.ts';

/** The `kid` of a JWT's header. */
const tokenKeyId = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid as string;
const linkKeyId = (url: string) => new URL(url).searchParams.get('kid')!;

/** Waits (a real-time poll, the epoch is re-read every 250 ms) until `read` answers `expected`. */
async function waitFor<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value === expected) return;
    if (Date.now() > deadline) assert.fail(`still ${String(value)}, expected ${String(expected)}`);
    await delay(25);
  }
}

describe(`signing keys rotate without downtime (${currentStackName()} stack)`, () => {
  const clock = new ManualClock();
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
  });
  after(() => server.stop());

  const status = async (token: string) =>
    (await server.client.call('GET', '/api/v1/user', { token })).body?.code ?? 200;
  const putStatus = async (url: string) => {
    const response = await fetch(url, {
      method: 'PUT',
      body: 'bytes',
      headers: { 'content-type': 'text/plain' },
    });
    return response.status === 200 ? 200 : ((await response.json()) as { code: string }).code;
  };
  const requestUpload = async (token: string, filePath: string) => {
    const requested = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    return requested.body.putFileUrl as string;
  };

  it('old tokens and links verify through the rotation, new ones use the new key, retired ones fail', async () => {
    const user = await server.client.signup();
    const oldToken = user.token;
    const oldLink = await requestUpload(oldToken, 'before-rotation.txt');
    const oldTokenKey = tokenKeyId(oldToken);
    const oldLinkKey = linkKeyId(oldLink);

    const lifetimes = toKeyLifetimes(server.services.config);
    const [token, link] = await rotateSigningKeys(server.services.repositories.signingKeys, {
      purposes: ['token', 'link'],
      clock,
      lifetimes,
    });
    assert.deepEqual(token?.verifying, [oldTokenKey]);
    assert.deepEqual(link?.verifying, [oldLinkKey]);
    // Until the new key activates, the old one signs (every process learns of the new one first).
    const login = async () => {
      const answer = await server.client.call('POST', '/api/v1/auth/login', {
        body: { email: user.email, password: user.password },
      });
      assert.equal(answer.status, 200, answer.text);
      return answer.body.token as string;
    };
    assert.equal(tokenKeyId(await login()), oldTokenKey);
    const activation = Math.ceil(Math.max(token!.signsFrom.getTime(), link!.signsFrom.getTime()) / 1000);
    clock.set(activation);
    await waitFor(async () => tokenKeyId(await login()), token!.keyId);
    const newToken = await login();
    await waitFor(
      async () => linkKeyId(await requestUpload(newToken, `after-${Math.random()}.txt`)),
      link!.keyId,
    );
    const newLink = await requestUpload(newToken, 'after-rotation.txt');
    assert.equal(await status(oldToken), 200);
    assert.equal(await status(newToken), 200);
    assert.equal(await putStatus(oldLink), 200);
    assert.equal(await putStatus(newLink), 200);

    // security: the key id is bound to the signature: naming the other live key fails.
    const swapped = newLink.replace(`kid=${link!.keyId}`, `kid=${oldLinkKey}`);
    assert.equal(await putStatus(swapped), 'INVALID_SIGNATURE');
    const [header, ...rest] = newToken.split('.');
    const oldHeader = JSON.parse(Buffer.from(header!, 'base64url').toString());
    const forged = [
      Buffer.from(JSON.stringify({ ...oldHeader, kid: oldTokenKey })).toString('base64url'),
      ...rest,
    ];
    assert.equal(await status(forged.join('.')), 'INVALID_TOKEN');

    // Just before retirement the old key still verifies: what it signed has merely expired.
    const retiresAtMs = (rotated: { signsFrom: Date }, lifetimeSeconds: number) =>
      rotated.signsFrom.getTime() + lifetimeSeconds * 1000 + keyRetirementMarginMs;
    const tokenRetires = retiresAtMs(token!, lifetimes.token.maxLifetimeSeconds);
    clock.set(Math.floor((tokenRetires - 1) / 1000));
    assert.equal(await status(oldToken), 'TOKEN_EXPIRED');
    clock.set(Math.ceil(tokenRetires / 1000));
    assert.equal(await status(oldToken), 'INVALID_TOKEN');
    const linkRetires = retiresAtMs(link!, lifetimes.link.maxLifetimeSeconds);
    clock.set(Math.floor((linkRetires - 1) / 1000));
    assert.equal(await putStatus(oldLink), 'LINK_EXPIRED');
    clock.set(Math.ceil(linkRetires / 1000));
    assert.equal(await putStatus(oldLink), 'INVALID_SIGNATURE');

    // The next rotation deletes the retired keys; the current ones keep verifying.
    const [nextToken, nextLink] = await rotateSigningKeys(server.services.repositories.signingKeys, {
      purposes: ['token', 'link'],
      clock,
      lifetimes,
    });
    assert.deepEqual(nextToken?.deleted, [oldTokenKey]);
    assert.deepEqual(nextLink?.deleted, [oldLinkKey]);
    assert.deepEqual(nextToken?.verifying, [token!.keyId]);
    const fresh = await login();
    assert.equal(await status(fresh), 200);
  });
});
