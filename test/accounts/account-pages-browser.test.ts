import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { startMailDelivery } from '../../src/start-mail-delivery.ts';
import { startSmtpReceiver } from '../mail/smtp-receiver.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';
import { linkOf, waitForMail } from './account-mail-support.ts';

const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));
const quiet = { info() {}, warn() {}, error() {} };

/**
 * Issue 23, item 5: Coffer's own pages for mail links, followed in headless Chromium as a user
 * would: the page opens (and even runs its script) without spending the token; the click does.
 */
describe(`account pages in Chromium (${currentStackName()} stack)`, {
  skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)',
}, () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let delivery: { stop(): Promise<void> };
  let browser: Browser;
  before(async () => {
    receiver = await startSmtpReceiver();
    server = await startTestServer(
      {},
      { COFFER_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`, COFFER_MAIL_DELIVERY_INTERVAL_MS: '20' },
    );
    delivery = startMailDelivery(server.services, quiet);
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await delivery?.stop();
    await server?.stop();
    await receiver?.close();
  });

  it('reset: the page takes the token from the fragment, clears it, and spends it only on submit', async () => {
    const { client } = server;
    const user = await client.signup(`reset-page-${Date.now()}@example.com`);
    await client.call('POST', '/api/v1/auth/password-reset', { body: { email: user.email } });
    const link = linkOf(await waitForMail(receiver.received, user.email));

    // A scanner that renders pages with their scripts: the token survives it.
    const scanner = await browser.newPage();
    await scanner.goto(link.url);
    await scanner.waitForSelector('form');
    assert.equal(new URL(scanner.url()).hash, '', 'the token leaves the address bar');
    await scanner.close();

    const page = await browser.newPage();
    try {
      await page.goto(link.url);
      // Long enough for the form, but one of the most common passwords: the server refuses it.
      await page.fill('#newPassword', 'password1');
      await page.click('button[type=submit]');
      await page.waitForFunction(() => document.getElementById('status')?.textContent !== '');
      assert.match(
        (await page.textContent('#status')) ?? '',
        /common/,
        'a refused password is explained, the token kept',
      );
      await page.fill('#newPassword', 'chosen in a browser 42');
      await page.click('button[type=submit]');
      await page.waitForFunction(() =>
        /password is changed/.test(document.getElementById('status')?.textContent ?? ''),
      );
    } finally {
      await page.close();
    }
    const login = await client.call('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: 'chosen in a browser 42' },
    });
    assert.equal(login.status, 200);
    const reuse = await fetch(link.page, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: link.token, newPassword: 'yet another passphrase' }),
    });
    assert.equal(reuse.status, 400);
    assert.equal(((await reuse.json()) as { code: string }).code, 'INVALID_TOKEN');
  });

  it('verification: one click confirms the address; a second visit says the link is used', async () => {
    const { client } = server;
    const user = await client.signup(`verify-page-${Date.now()}@example.com`);
    await client.call('POST', '/api/v1/auth/verify-email', { token: user.token });
    const link = linkOf(await waitForMail(receiver.received, user.email));
    const page = await browser.newPage();
    try {
      await page.goto(link.url);
      assert.equal(await page.title(), 'Confirm your email address');
      await page.click('button[type=submit]');
      await page.waitForFunction(() =>
        /address is confirmed/.test(document.getElementById('status')?.textContent ?? ''),
      );
    } finally {
      await page.close();
    }
    const again = await browser.newPage();
    try {
      await again.goto(link.url);
      await again.click('button[type=submit]');
      await again.waitForFunction(() =>
        /not valid/.test(document.getElementById('status')?.textContent ?? ''),
      );
    } finally {
      await again.close();
    }
    const profile = await client.call('GET', '/api/v1/user', { token: user.token });
    assert.equal(profile.body.emails[0].verified, true);
  });

  it('serves the pages with a strict policy, and 404 for an unknown purpose', async () => {
    const page = await fetch(`${server.baseUrl}/account/reset-password`);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    const unknown = await fetch(`${server.baseUrl}/account/delete-everything`);
    assert.equal(unknown.status, 404);
    const spendUnknown = await fetch(`${server.baseUrl}/account/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'x' }),
    });
    assert.equal(spendUnknown.status, 404, 'sign-in by link needs the app’s page');
  });
});
