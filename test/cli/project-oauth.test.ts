import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { signInThroughIdp, startTestIdp } from '../support/oidc-test-idp.ts';

/** Issue 37: `coffer project oauth list|set|rm`, and a provider set by it signing users in on a running server. */
describe('coffer project oauth list | set | rm, with a server running on the same data', () => {
  let coffer: CofferProcess;
  let idp: Awaited<ReturnType<typeof startTestIdp>>;
  before(async () => {
    coffer = await startCofferProcess({ env: { COFFER_OAUTH_ALLOW_PRIVATE: 'true' } });
    idp = await startTestIdp({ redirectUris: [`${coffer.baseUrl}/api/v1/oauth/corp/callback`] });
  });
  after(async () => {
    await coffer?.stop();
    await idp?.stop();
  });
  const cli = (args: string[], input?: string) =>
    runCli([...args, '--data-dir', coffer.dataDir], coffer.env, { input });
  const json = async (args: string[], input?: string) => {
    const result = await cli([...args, '--json'], input);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  };

  it('sets providers (the secret from stdin), lists them with secrets as (set), replaces and removes them', async () => {
    await json(['project', 'create', 'oauth-cli']);
    assert.deepEqual((await json(['project', 'oauth', 'list', 'oauth-cli'])).providers, []);
    const secret = 'a-google-secret-never-printed';
    await json(
      ['project', 'oauth', 'set', 'oauth-cli', 'google', '--client-id', 'google-id', '--client-secret', '-'],
      `${secret}\n`,
    );
    await json([
      ...['project', 'oauth', 'set', 'oauth-cli', 'corp', '--client-id', 'a', '--client-secret', 'b'],
      ...['--issuer', 'https://idp.example/'],
    ]);
    // set replaces the provider: the issuer goes when OAuth 2.0 endpoints take its place.
    const urls = ['--authorization-url', 'https://idp.example/a', '--token-url', 'https://idp.example/t'];
    await json([
      ...['project', 'oauth', 'set', 'oauth-cli', 'corp', '--client-id', 'c', '--client-secret', 'd'],
      ...[...urls, '--userinfo-url', 'https://idp.example/u'],
    ]);
    const listed = await cli(['project', 'oauth', 'list', 'oauth-cli', '--json']);
    assert.deepEqual(JSON.parse(listed.stdout).providers, [
      { name: 'google', clientId: 'google-id', clientSecret: '(set)', ready: true },
      {
        name: 'corp',
        clientId: 'c',
        clientSecret: '(set)',
        authorizationUrl: 'https://idp.example/a',
        tokenUrl: 'https://idp.example/t',
        userinfoUrl: 'https://idp.example/u',
        ready: true,
      },
    ]);
    const text = await cli(['project', 'oauth', 'list', 'oauth-cli']);
    assert.match(text.stdout, /^google {2}clientId=google-id {2}clientSecret=\(set\)$/m);
    for (const output of [listed.stdout, text.stdout, (await cli(['project', 'show', 'oauth-cli'])).stdout])
      assert.doesNotMatch(output, new RegExp(`${secret}|clientSecret=d\\b|"d"`));

    const removed = await json(['project', 'oauth', 'rm', 'oauth-cli', 'corp']);
    assert.deepEqual(
      removed.providers.map((provider: { name: string }) => provider.name),
      ['google'],
    );
    const again = await cli(['project', 'oauth', 'rm', 'oauth-cli', 'corp', '--json']);
    assert.equal(again.code, 1, again.stderr);
    assert.equal(JSON.parse(again.stdout).code, 'NOT_FOUND');
  });

  it('refuses what could not sign anyone in, exit 2, and changes nothing', async () => {
    await json(['project', 'create', 'oauth-wrong']);
    const set = ['project', 'oauth', 'set', 'oauth-wrong'];
    for (const args of [
      [...set, 'corp', '--client-id', 'a', '--client-secret', 'b'],
      [...set, 'corp', '--client-id', 'a', '--client-secret', 'b', '--token-url', 'https://idp.example/t'],
      [...set, 'corp', '--client-id', 'a', '--client-secret', 'b', '--issuer', 'ftp://idp.example'],
      [...set, 'google', '--client-id', 'a'],
      [...set, 'google', '--client-id', 'a', '--client-secret', '-'],
      ['project', 'oauth', 'list', 'oauth-wrong', '--issuer', 'https://idp.example'],
    ]) {
      const wrong = await cli([...args, '--json'], '');
      assert.equal(wrong.code, 2, `${args.join(' ')}: ${wrong.stderr}`);
      assert.match(JSON.parse(wrong.stdout).code, /^(VALIDATION_FAILED|INVALID_INVOCATION)$/);
    }
    assert.deepEqual((await json(['project', 'oauth', 'list', 'oauth-wrong'])).providers, []);
  });

  it('a provider it sets signs users in on the running server, and stops once removed', async () => {
    const created = await json(['project', 'create', 'oauth-live']);
    const client = new ApiClient(coffer.baseUrl, created);
    await json(
      [
        ...['project', 'oauth', 'set', 'oauth-live', 'corp', '--client-id', idp.clientId],
        ...['--client-secret', '-', '--issuer', idp.issuer],
      ],
      idp.clientSecret,
    );
    const startUrl = (state: string) =>
      `${coffer.baseUrl}/api/v1/oauth/corp?${new URLSearchParams({ state, sb_app_id: created.appId })}`;
    const state = randomUUID();
    const page = await signInThroughIdp(startUrl(state), 'grace');
    assert.equal(page.status, 200, await page.text());
    const session = await client.call('GET', `/api/v1/oauth/corp/token?state=${state}`);
    assert.equal(session.status, 200, session.text);
    const profile = await client.call('GET', '/api/v1/user', { token: session.body.token });
    assert.deepEqual(profile.body.providers, [{ id: 'grace', displayName: 'grace', providerName: 'corp' }]);

    await json(['project', 'oauth', 'rm', 'oauth-live', 'corp']);
    // Running servers re-read a changed project within a second (the epoch): wait for it.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const start = await fetch(startUrl(randomUUID()), { redirect: 'manual' });
      await start.body?.cancel();
      if (start.status === 404) break;
      assert.equal(start.status, 302);
      if (Date.now() > deadline) assert.fail('the removed provider still starts sign-ins');
      await delay(50);
    }
  });
});
