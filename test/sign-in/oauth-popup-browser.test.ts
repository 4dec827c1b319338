import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assignProjectSettings } from '../../src/domain/identity/assign-project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { launchChromium, skipWithoutChromium } from '../support/console-browser.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { startTestIdp } from '../support/oidc-test-idp.ts';

/**
 * The app's page, doing what the Selfbits web SDKs do (wave4-peers.md §2.1): a click opens the
 * popup on Coffer's start URL (`window.open(url, '_blank', 'height=700, width=500')`), `closed`
 * is polled every 500 ms, then the token is fetched with the app's headers and the profile read.
 * What happened is written into #outcome as JSON.
 */
const appPage = `<!doctype html>
<title>app</title>
<button id="sign-in">Sign in</button>
<pre id="outcome"></pre>
<script>
const settings = JSON.parse(decodeURIComponent(location.hash.slice(1)));
const headers = { 'sb-app-id': settings.appId, 'sb-app-secret': settings.appSecret };
document.getElementById('sign-in').addEventListener('click', () => {
  const state = crypto.randomUUID();
  const start = settings.baseUrl + '/api/v1/oauth/' + settings.provider + '?' +
    new URLSearchParams({ state, sb_app_id: settings.appId, sb_app_secret: settings.appSecret });
  const popup = window.open(start, '_blank', 'height=700, width=500');
  const poll = setInterval(async () => {
    if (!popup.closed) return;
    clearInterval(poll);
    const answer = await fetch(settings.baseUrl + '/api/v1/oauth/' + settings.provider + '/token?state=' + encodeURIComponent(state), { headers });
    const token = await answer.json();
    let profile = null;
    if (answer.status === 200) {
      const user = await fetch(settings.baseUrl + '/api/v1/user', { headers: { ...headers, authorization: 'Bearer ' + token.token } });
      profile = await user.json();
    }
    document.getElementById('outcome').textContent = JSON.stringify({ status: answer.status, token, profile });
  }, 500);
});
</script>`;

function startAppSite(): Promise<Server> {
  const site = createServer((request, response) => {
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(appPage);
    else response.writeHead(404).end();
  });
  return new Promise((resolve) => site.listen(0, '127.0.0.1', () => resolve(site)));
}

type Outcome = {
  status: number;
  token: { token?: string; userId?: string; code?: string };
  profile: { providers: unknown[] } | null;
};

// Issue 37, "Done when": the popup flow end to end in Chromium, the provider's own forms included.
describe('provider sign-in in a popup, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startTestIdp>>;
  let site: Server;
  let browser: Browser;
  let client: ApiClient;
  let origin: string;

  before(async () => {
    server = await startTestServer({}, { COFFER_OAUTH_ALLOW_PRIVATE: 'true' });
    idp = await startTestIdp({ redirectUris: [`${server.baseUrl}/api/v1/oauth/corp/callback`] });
    site = await startAppSite();
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    client = await server.createProject('popup-app', [origin]);
    const { projects } = server.services.repositories;
    const project = (await projects.findById(client.credentials.projectId))!;
    await projects.updateSettings(
      project.id,
      assignProjectSettings(project, [
        `oauth.corp.issuer=${idp.issuer}`,
        `oauth.corp.clientId=${idp.clientId}`,
        `oauth.corp.clientSecret=${idp.clientSecret}`,
      ]),
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await idp?.stop();
    await server?.stop();
  });

  /**
   * The app's page in a fresh context, its popup when the sign-in button is clicked, and every
   * policy violation or script error of either window (`problems`).
   */
  async function openPopup(provider: string) {
    const context: BrowserContext = await browser.newContext();
    // The provider's stock pages import a web font: nothing leaves this machine.
    await context.route(/^https:\/\/fonts\./, (route) => route.abort());
    const problems: string[] = [];
    const watch = (page: Page) => {
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
    };
    const page = await context.newPage();
    watch(page);
    const settings = { baseUrl: server.baseUrl, provider, ...client.credentials };
    await page.goto(`${origin}/#${encodeURIComponent(JSON.stringify(settings))}`);
    const [popup] = await Promise.all([context.waitForEvent('page'), page.click('#sign-in')]);
    watch(popup);
    // Listened for at once: the callback page may close its window while a click still waits.
    const closed = new Promise<void>((resolve) => popup.once('close', () => resolve()));
    const outcome = async (): Promise<Outcome> => {
      await page.locator('#outcome').filter({ hasText: /\S/ }).waitFor();
      return JSON.parse((await page.locator('#outcome').textContent()) ?? '');
    };
    return { context, page, popup, problems, outcome, closed };
  }

  it("signs in through the provider's login and consent forms; the popup closes itself and the app gets its token", async () => {
    const { context, popup, problems, outcome, closed } = await openPopup('corp');
    try {
      const callbackPolicies: string[] = [];
      popup.on('response', (response) => {
        if (new URL(response.url()).pathname.endsWith('/corp/callback'))
          callbackPolicies.push(response.headers()['content-security-policy'] ?? '');
      });
      await popup.locator('input[name="login"]').fill('alice');
      await popup.locator('input[name="password"]').fill('any password');
      await popup.getByRole('button', { name: 'Sign-in' }).click();
      await popup.getByRole('button', { name: 'Continue' }).click();
      // The popup closes itself; Coffer's error page instead would leave it open, saying why.
      const failed = popup.getByRole('heading', { name: 'Sign-in failed' });
      await Promise.race([
        closed,
        failed.waitFor().then(async () => assert.fail((await popup.locator('body').textContent()) ?? '')),
      ]);
      const { status, token, profile } = await outcome();
      assert.equal(status, 200, JSON.stringify(token));
      assert.ok(token.token && token.userId);
      assert.deepEqual(profile?.providers, [{ id: 'alice', displayName: 'alice', providerName: 'corp' }]);
      assert.equal(callbackPolicies.length, 1, 'the popup landed on the callback page');
      assert.match(callbackPolicies[0]!, /script-src 'sha256-[^']+';/, 'the page allows its own script only');
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await context.close();
    }
  });

  it("shows Coffer's error page when the user cancels at the provider, and signs nobody in", async () => {
    const { context, popup, problems, outcome } = await openPopup('corp');
    try {
      await popup.getByRole('link', { name: '[ Cancel ]' }).click();
      await popup.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
      assert.match((await popup.locator('body').textContent()) ?? '', /access_denied/);
      assert.equal(popup.isClosed(), false, 'an error page stays open for the user to read');
      await popup.close(); // the user closes it; the app then asks for its token
      const { status, token, profile } = await outcome();
      assert.equal(status, 404);
      assert.equal(token.code, 'OAUTH_STATE_NOT_FOUND');
      assert.equal(profile, null);
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await context.close();
    }
  });

  it("shows Coffer's error page for a provider the project does not have", async () => {
    const { context, popup, problems, outcome } = await openPopup('nope');
    try {
      await popup.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
      assert.match((await popup.locator('body').textContent()) ?? '', /no sign-in provider "nope"/);
      await popup.close();
      const { status, token } = await outcome();
      assert.equal(status, 404);
      assert.equal(token.code, 'OAUTH_STATE_NOT_FOUND');
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await context.close();
    }
  });
});
