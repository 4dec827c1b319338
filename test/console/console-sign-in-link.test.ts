import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

const csrf = { 'x-coffer-console': '1', 'content-type': 'application/json' };

// `coffer console`: a one-time link that signs in to the console, on a real `coffer serve`.
describe('console: one-time sign-in links', () => {
  let coffer: CofferProcess;
  const cli = (args: string[], input?: string) =>
    runCli([...args, '--data-dir', coffer.dataDir, '--json'], coffer.env, { input });
  const useLink = (token: string) =>
    fetch(`${coffer.baseUrl}/console/api/session/link`, {
      method: 'POST',
      headers: csrf,
      body: JSON.stringify({ token }),
    });
  /** `coffer console` → the token in its link's fragment. */
  const issueLink = async (args: string[] = []) => {
    const printed = await cli(['console', '--public-url', coffer.baseUrl, ...args]);
    assert.equal(printed.code, 0, printed.stderr);
    const { url, expiresAt } = JSON.parse(printed.stdout);
    assert.ok(url.startsWith(`${coffer.baseUrl}/console/sign-in#token=`), url);
    const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
    assert.ok(minutes > 9 && minutes <= 10, `expires in ${minutes} minutes`);
    return new URL(url).hash.slice('#token='.length);
  };

  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer.stop());

  it('tells to create an operator first, and to name one when there are several', async () => {
    const none = await cli(['console']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /operator create/);
    for (const email of ['ops@example.com', 'second@example.com']) {
      const created = await cli(
        ['operator', 'create', '--email', email, '--password-stdin'],
        'operator passphrase 42',
      );
      assert.equal(created.code, 0, created.stderr);
    }
    const several = await cli(['console']);
    assert.equal(several.code, 2);
    assert.match(several.stderr, /--email/);
    assert.equal((await cli(['console', '--email', 'nobody@example.com'])).code, 1);
  });

  it('signs in once: the same link a second time, or a made-up one, is refused', async () => {
    const token = await issueLink(['--email', 'Second@Example.com']);
    const [first, second] = await Promise.all([useLink(token), useLink(token)]);
    const statuses = [first.status, second.status].sort();
    assert.deepEqual(statuses, [200, 401], 'of two uses at once, one signs in');
    const winner = first.status === 200 ? first : second;
    assert.equal((await winner.json()).operator.email, 'second@example.com');
    const cookie = winner.headers.getSetCookie()[0]!;
    assert.match(cookie, /HttpOnly/);
    const session = await fetch(`${coffer.baseUrl}/console/api/session`, {
      headers: { cookie: cookie.split(';')[0]! },
    });
    assert.equal((await session.json()).operator.email, 'second@example.com');
    const again = await useLink(token);
    assert.equal(again.status, 401);
    assert.equal((await again.json()).code, 'INVALID_LOGIN');
    assert.equal((await useLink('made-up-token')).status, 401);
  });

  it('needs the console header like every change', async () => {
    const token = await issueLink(['--email', 'ops@example.com']);
    const response = await fetch(`${coffer.baseUrl}/console/api/session/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(response.status, 403);
    assert.equal((await useLink(token)).status, 200, 'the refused request did not use the link up');
  });

  it('points at the server running on the data dir, whatever port it took, without --public-url', async () => {
    // startCofferProcess serves on a port of its own (not 8080): the link must name that one.
    const printed = await cli(['console', '--email', 'ops@example.com']);
    assert.equal(printed.code, 0, printed.stderr);
    const { url } = JSON.parse(printed.stdout);
    assert.ok(url.startsWith(`${coffer.baseUrl}/console/sign-in#token=`), url);
    assert.equal((await useLink(new URL(url).hash.slice('#token='.length))).status, 200);
  });
});
