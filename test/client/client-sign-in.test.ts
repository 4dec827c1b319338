import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CofferClient,
  type CofferError,
  type OpenSignInWindow,
  type SignInWindow,
} from '../../packages/client/src/index.ts';
import { assignProjectSettings } from '../../src/domain/identity/assign-project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { signInThroughIdp, startTestIdp } from '../support/oidc-test-idp.ts';

const appOrigin = 'https://app.example';

/**
 * Issue 37: `client.auth` against a real server and a stock OpenID Connect provider on loopback.
 * The popup is a function the test hands in: it follows the provider's login and consent forms
 * as a browser would, and the window counts as closed once Coffer's callback page answered
 * (that page closes its popup). The Chromium run of the real popup is another test's.
 */
describe('@coffer/client sign-in with a provider', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startTestIdp>>;
  let project: ApiClient;

  before(async () => {
    server = await startTestServer({}, { COFFER_OAUTH_ALLOW_PRIVATE: 'true' }, { clock });
    idp = await startTestIdp({ redirectUris: [`${server.baseUrl}/api/v1/oauth/corp/callback`] });
    project = await server.createProject('client-sign-in', [appOrigin]);
    const { projects } = server.services.repositories;
    const stored = (await projects.findById(project.credentials.projectId))!;
    await projects.updateSettings(
      stored.id,
      assignProjectSettings(stored, [
        `oauth.corp.issuer=${idp.issuer}`,
        `oauth.corp.clientId=${idp.clientId}`,
        `oauth.corp.clientSecret=${idp.clientSecret}`,
      ]),
    );
  });
  after(async () => {
    await server?.stop();
    await idp?.stop();
  });

  /** A client as a browser page of the app's origin holds it: an app id, no secret. */
  const browserClient = () =>
    new CofferClient({
      baseUrl: server.baseUrl,
      appId: project.credentials.appId,
      fetch: (url, init) =>
        fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: appOrigin } }),
    });

  /** A popup in which `login` signs in at the provider; `opened` collects its start URLs. */
  const popupAs = (login: string, opened: string[] = []): OpenSignInWindow => {
    return (url) => {
      opened.push(url);
      const window = { closed: false };
      void signInThroughIdp(url, login).then(
        async (page) => {
          assert.equal(page.status, 200, await page.text());
          window.closed = true;
        },
        () => {
          window.closed = true;
        },
      );
      return window;
    };
  };

  it('signs in through a popup without the app secret, and the same identity finds the same user', async () => {
    const opened: string[] = [];
    const coffer = browserClient();
    const session = await coffer.auth.signInWith('corp', { popup: popupAs('alice', opened) });
    assert.equal(coffer.session?.userId, session.userId);
    const start = new URL(opened[0]!);
    assert.equal(start.pathname, '/api/v1/oauth/corp');
    assert.equal(start.searchParams.get('sb_app_id'), project.credentials.appId);
    assert.equal(start.searchParams.has('sb_app_secret'), false, 'a URL never carries the secret');
    assert.ok((start.searchParams.get('state') ?? '').length >= 32, 'an unguessable state');
    const profile = await coffer.profile();
    assert.deepEqual(profile.providers, [{ id: 'alice', displayName: 'alice', providerName: 'corp' }]);

    const again = await browserClient().auth.signInWith('corp', { popup: popupAs('alice', opened) });
    assert.equal(again.userId, session.userId);
    assert.notEqual(opened[1], opened[0], 'a new state for every sign-in');
  });

  it('reports a blocked popup, one closed before the end, and a cancelled wait', async () => {
    const coffer = browserClient();
    await assert.rejects(coffer.auth.signInWith('corp', { popup: () => null }), { code: 'POPUP_BLOCKED' });
    const closedAtOnce: SignInWindow = { closed: true };
    await assert.rejects(
      coffer.auth.signInWith('corp', { popup: () => closedAtOnce }),
      (error: CofferError) => error.status === 404 && error.code === 'OAUTH_STATE_NOT_FOUND',
    );
    const controller = new AbortController();
    const waiting = coffer.auth.signInWith('corp', {
      popup: () => ({ closed: false }),
      signal: controller.signal,
    });
    controller.abort();
    await assert.rejects(waiting, { code: 'SIGN_IN_CANCELLED' });
    assert.equal(coffer.session, undefined);
  });

  it('signs in by redirect: the page it comes back to finishes with its state, once', async () => {
    const coffer = browserClient();
    let start = '';
    const leaving = coffer.auth.signInWith('corp', {
      redirectTo: `${appOrigin}/signed-in`,
      navigate: (url) => {
        start = url;
      },
    });
    assert.ok(leaving instanceof Promise);
    const back = await signInThroughIdp(start, 'carol');
    assert.equal(back.status, 302);
    const landing = new URL(back.headers.get('location') ?? '');
    assert.equal(`${landing.origin}${landing.pathname}`, `${appOrigin}/signed-in`);
    const state = landing.searchParams.get('state') ?? '';

    await assert.rejects(coffer.auth.finishSignIn('corp', `${state}x`), { code: 'SIGN_IN_STATE_MISMATCH' });
    // The mismatch spent what this tab kept: a state is tried once.
    await assert.rejects(coffer.auth.finishSignIn('corp', state), { code: 'SIGN_IN_STATE_MISMATCH' });

    void coffer.auth.signInWith('corp', {
      redirectTo: `${appOrigin}/signed-in`,
      navigate: (url) => {
        start = url;
      },
    });
    const second = new URL((await signInThroughIdp(start, 'carol')).headers.get('location') ?? '');
    const session = await coffer.auth.finishSignIn('corp', second.searchParams.get('state') ?? '');
    assert.equal(coffer.session?.userId, session.userId);
    assert.equal((await coffer.profile()).providers[0]?.id, 'carol');
  });

  it('links a provider to the signed-in account (a stale token refreshed first), then unlinks it', async () => {
    const coffer = browserClient();
    const owner = await coffer.signup({ email: 'dave@example.com', password: 'correct horse battery' });
    await assert.rejects(browserClient().auth.signInWith('corp', { popup: popupAs('dave') }), {
      code: 'ACCOUNT_EXISTS',
    });
    clock.advance(3700); // past the access token's hour: a stale bearer would be ignored, not link
    const linked = await coffer.auth.linkProvider('corp', { popup: popupAs('dave') });
    assert.equal(linked.userId, owner.userId);
    assert.deepEqual(
      (await coffer.profile()).providers.map((provider) => provider.providerName),
      ['corp'],
    );
    const byProvider = await browserClient().auth.signInWith('corp', { popup: popupAs('dave') });
    assert.equal(byProvider.userId, owner.userId, 'the provider now signs the account in');

    await coffer.auth.unlinkProvider('corp');
    assert.deepEqual((await coffer.profile()).providers, []);
    const taken = browserClient();
    await taken.signup({ email: 'erin@example.com', password: 'correct horse battery' });
    await assert.rejects(
      taken.auth.linkProvider('corp', { popup: popupAs('alice') }),
      (error: CofferError) => error.status === 409 && error.code === 'IDENTITY_IN_USE',
    );
    await assert.rejects(browserClient().auth.linkProvider('corp', { popup: popupAs('alice') }), {
      code: 'AUTH_REQUIRED',
    });
  });

  it("refuses to unlink a user's last way in", async () => {
    const coffer = browserClient();
    await coffer.auth.signInWith('corp', { popup: popupAs('frank') });
    await assert.rejects(
      coffer.auth.unlinkProvider('corp'),
      (error: CofferError) => error.status === 409 && error.code === 'LAST_SIGN_IN_METHOD',
    );
  });
});
