import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assignProjectSettings } from '../../src/domain/identity/assign-project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { signInThroughIdp, startTestIdp } from '../support/oidc-test-idp.ts';

type Idp = Awaited<ReturnType<typeof startTestIdp>>;

/** Issue 37: sign-in with an OpenID Connect provider, driven as the Selfbits SDKs drive it. */
describe('sign-in with an OpenID Connect provider (oidc-provider on loopback)', () => {
  let server: TestServer;
  let idp: Idp;
  let client: ApiClient;

  before(async () => {
    server = await startTestServer({}, { COFFER_OAUTH_ALLOW_PRIVATE: 'true' });
    idp = await startTestIdp({
      redirectUris: [`${server.baseUrl}/api/v1/oauth/corp/callback`],
      accounts: { unverified: { email: 'unverified@example.com', emailVerified: false } },
    });
    client = await server.createProject('oauth', ['https://app.example']);
    await configure(client, [
      `oauth.corp.issuer=${idp.issuer}`,
      `oauth.corp.clientId=${idp.clientId}`,
      `oauth.corp.clientSecret=${idp.clientSecret}`,
    ]);
  });
  after(async () => {
    await server?.stop();
    await idp?.stop();
  });

  async function configure(target: ApiClient, assignments: string[]) {
    const { projects } = server.services.repositories;
    const project = (await projects.findById(target.credentials.projectId))!;
    await projects.updateSettings(project.id, assignProjectSettings(project, assignments));
  }

  /** The popup's start URL, as the SDKs build it. */
  const startUrl = (state: string, extra: Record<string, string> = {}, provider = 'corp') =>
    `${server.baseUrl}/api/v1/oauth/${provider}?${new URLSearchParams({
      state,
      sb_app_id: client.credentials.appId,
      sb_app_secret: client.credentials.appSecret,
      ...extra,
    })}`;
  const fetchToken = (state: string, token?: string) =>
    client.call('GET', `/api/v1/oauth/corp/token?state=${encodeURIComponent(state)}`, { token });
  /** A whole sign-in: the popup, then the token fetch; answers the token fetch. */
  const signIn = async (login: string, token?: string) => {
    const state = randomUUID() + randomUUID();
    const page = await signInThroughIdp(startUrl(state), login);
    assert.equal(page.status, 200, await page.clone().text());
    return fetchToken(state, token);
  };

  it('creates a user on the first sign-in and finds it on the next; the profile lists the provider', async () => {
    const state = randomUUID() + randomUUID();
    const page = await signInThroughIdp(startUrl(state), 'alice');
    assert.equal(page.status, 200);
    assert.match(page.url || '/oauth/corp/callback', /corp\/callback/);
    const html = await page.text();
    assert.match(html, /window\.close\(\)/, 'the page closes its popup');
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'sha256-/);
    const first = await fetchToken(state);
    assert.equal(first.status, 200, first.text);
    assert.ok(first.body.token && first.body.refreshToken && first.body.userId);
    const again = await fetchToken(state);
    assert.equal(again.status, 404, 'a state is taken once');
    assert.equal(again.body.code, 'OAUTH_STATE_NOT_FOUND');

    const profile = await client.call('GET', '/api/v1/user', { token: first.body.token });
    assert.equal(profile.status, 200, profile.text);
    assert.deepEqual(profile.body.providers, [{ id: 'alice', displayName: 'alice', providerName: 'corp' }]);
    assert.deepEqual(profile.body.emails, [{ email: 'alice@example.com', primary: true, verified: true }]);

    const second = await signIn('alice');
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.userId, first.body.userId, 'the same identity signs in the same user');
  });

  it('never takes over an account of the same email: ACCOUNT_EXISTS, then links from a session', async () => {
    const owner = await client.signup('bob@example.com');
    const refused = await signIn('bob');
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'ACCOUNT_EXISTS');
    // Signed in, the SDK sends its bearer: the identity is linked to that account.
    const linked = await signIn('bob', owner.token);
    assert.equal(linked.status, 200, linked.text);
    assert.equal(linked.body.userId, owner.userId);
    const again = await signIn('bob');
    assert.equal(again.body.userId, owner.userId, 'the linked identity now signs the account in');
    // Another account holding a bearer cannot take the identity.
    const other = await client.signup();
    const taken = await signIn('bob', other.token);
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.body.code, 'IDENTITY_IN_USE');
    // An expired or invalid bearer is ignored: the call signs in.
    const stale = await signIn('bob', 'not-a-token');
    assert.equal(stale.status, 200, stale.text);
    assert.equal(stale.body.userId, owner.userId);
  });

  it('links by email only where the project allows it and both sides have the address verified', async () => {
    const linking = await server.createProject('oauth-link-by-email');
    const previous = client;
    client = linking;
    const markVerified = (userId: string) =>
      server.services.database.db
        .updateTable('users')
        .set({ email_verified_at: Date.now() })
        .where('id', '=', userId)
        .execute();
    try {
      await configure(linking, [
        `oauth.corp.issuer=${idp.issuer}`,
        `oauth.corp.clientId=${idp.clientId}`,
        `oauth.corp.clientSecret=${idp.clientSecret}`,
        'oauthLinkByEmail=true',
      ]);
      const carol = await linking.signup('carol@example.com');
      const refused = await signIn('carol');
      assert.equal(refused.body.code, 'ACCOUNT_EXISTS', 'the local address is not verified');
      await markVerified(carol.userId);
      const linked = await signIn('carol');
      assert.equal(linked.status, 200, linked.text);
      assert.equal(linked.body.userId, carol.userId, 'both sides vouch for the address: linked');
      const other = await linking.signup('unverified@example.com');
      await markVerified(other.userId);
      const notVerifiedThere = await signIn('unverified');
      assert.equal(
        notVerifiedThere.body.code,
        'ACCOUNT_EXISTS',
        'the provider does not vouch for the address',
      );
    } finally {
      client = previous;
    }
  });

  it('unlinking never leaves a user without a way in', async () => {
    const created = await signIn('dave');
    assert.equal(created.status, 200, created.text);
    const unlink = await client.call('DELETE', '/api/v1/oauth/corp/unlink', { token: created.body.token });
    assert.equal(unlink.status, 409, unlink.text);
    assert.equal(unlink.body.code, 'LAST_SIGN_IN_METHOD');
    const withPassword = await client.signup('erin@example.com');
    assert.equal((await signIn('erin', withPassword.token)).status, 200);
    const unlinked = await client.call('DELETE', '/api/v1/oauth/corp/unlink', { token: withPassword.token });
    assert.equal(unlinked.status, 204, unlinked.text);
    const profile = await client.call('GET', '/api/v1/user', { token: withPassword.token });
    assert.deepEqual(profile.body.providers, []);
  });

  it('refuses replays, unknown providers, foreign redirects and other apps', async () => {
    const state = randomUUID() + randomUUID();
    const page = await signInThroughIdp(startUrl(state), 'frank');
    assert.equal(page.status, 200);
    // The callback's own URL, replayed (code and state used once already).
    const replay = await fetch(page.url || '', { redirect: 'manual' }).catch(() => undefined);
    if (replay) {
      assert.equal(replay.status, 400);
      assert.match(await replay.text(), /already finished|unknown, expired/);
    }
    const unknown = await fetch(startUrl('abcdefgh', {}, 'nope'), { redirect: 'manual' });
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /no sign-in provider/);
    const foreign = await fetch(startUrl('abcdefghij', { redirectTo: 'https://evil.example/x' }), {
      redirect: 'manual',
    });
    assert.equal(foreign.status, 400, 'an open redirect is refused');
    await foreign.body?.cancel();
    const allowed = await fetch(startUrl('abcdefghijk', { redirectTo: 'https://app.example/done' }), {
      redirect: 'manual',
    });
    assert.equal(allowed.status, 302);
    assert.ok(allowed.headers.get('location')?.startsWith(idp.issuer));
    const wrongSecret = await fetch(startUrl('abcdefghijkl', { sb_app_secret: 'wrong' }), {
      redirect: 'manual',
    });
    assert.equal(wrongSecret.status, 401);
    await wrongSecret.body?.cancel();
    const reused = await fetch(startUrl('abcdefghijk', { redirectTo: 'https://app.example/done' }), {
      redirect: 'manual',
    });
    assert.equal(reused.status, 400, 'a client state starts one flow only');
    await reused.body?.cancel();
    // Another project's app cannot fetch this project's flow.
    const other = await server.createProject('oauth-other');
    const stolen = await other.call('GET', `/api/v1/oauth/corp/token?state=${'x'.repeat(16)}`);
    assert.equal(stolen.status, 404);
  });

  it('hands the token only to the client address that started the flow', async () => {
    // An attacker who chose the state and lured the victim through the popup fetches from elsewhere.
    const state = randomUUID() + randomUUID();
    const page = await signInThroughIdp(startUrl(state), 'grace');
    assert.equal(page.status, 200);
    const path = `/api/v1/oauth/corp/token?state=${encodeURIComponent(state)}`;
    const elsewhere = await client.call('GET', path, { localAddress: '127.0.0.2' });
    assert.equal(elsewhere.status, 404, elsewhere.text);
    assert.equal(elsewhere.body.code, 'OAUTH_STATE_NOT_FOUND');
    const here = await client.call('GET', path);
    assert.equal(here.status, 200, 'the starting address still takes it');
  });

  it('a provider that cannot be reached gives a clear page, not a 500', async () => {
    const down = await server.createProject('oauth-down');
    await configure(down, [
      'oauth.corp.issuer=http://127.0.0.1:9/nowhere',
      'oauth.corp.clientId=x',
      'oauth.corp.clientSecret=y',
    ]);
    const url = `${server.baseUrl}/api/v1/oauth/corp?${new URLSearchParams({
      state: 'abcdefghij',
      sb_app_id: down.credentials.appId,
    })}`;
    const answer = await fetch(url, { redirect: 'manual' });
    assert.equal(answer.status, 502);
    assert.match(await answer.text(), /could not be reached/);
  });

  it('shows provider secrets to operators only as (set)', async () => {
    const { toSettingsView } = await import('../../src/domain/identity/settings-view.ts');
    const project = (await server.services.repositories.projects.findById(client.credentials.projectId))!;
    assert.equal(toSettingsView(project.settings).oauth.corp?.clientSecret, '(set)');
    assert.equal(toSettingsView(project.settings).oauth.corp?.clientId, idp.clientId);
  });
});
