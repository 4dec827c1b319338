import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import {
  assertNamedControls,
  launchChromium,
  openPage,
  signIn,
  skipWithoutChromium,
} from '../support/console-browser.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { signInThroughIdp, startTestIdp } from '../support/oidc-test-idp.ts';

// Issue 37 in the console, in Chromium: an operator adds, changes and removes a sign-in provider
// (its secret typed once, never sent back to the browser), and sees who signed in with it on the
// user's page.
describe('the console for sign-in providers, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let coffer: CofferProcess;
  let idp: Awaited<ReturnType<typeof startTestIdp>>;
  let call: ConsoleCall;
  let browser: Browser;
  let projectId: string;
  const consoleUrl = (route: string) => `${coffer.baseUrl}/console#/projects/${projectId}/${route}`;

  before(async () => {
    coffer = await startCofferProcess({ env: { COFFER_OAUTH_ALLOW_PRIVATE: 'true' } });
    idp = await startTestIdp({ redirectUris: [`${coffer.baseUrl}/api/v1/oauth/corp/callback`] });
    call = await signInToConsole(coffer);
    projectId = coffer.credentials.projectId;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await idp?.stop();
    await coffer?.stop();
  });

  it("adds, changes and removes a provider; the user's page lists the identities", async () => {
    const { page, problems } = await openPage(browser);
    // Whatever the console API answers the browser: the client secret must never be in it.
    const answers: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/console/api/')) answers.push(response.text().catch(() => ''));
    });
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(consoleUrl('settings'));
      const section = page.getByRole('region', { name: 'Sign-in providers' });
      await section.getByText('None.').waitFor();
      await section.getByLabel('Provider name').fill('corp');
      await section.getByLabel('Client id').fill('wrong-client');
      await section.getByLabel('Client secret').fill(idp.clientSecret);
      await section.getByLabel('Issuer (OpenID Connect)').fill(idp.issuer);
      await section.getByRole('button', { name: 'Add provider' }).click();
      await section.getByRole('status').filter({ hasText: 'Saved provider corp.' }).waitFor();
      const row = section.getByRole('row').filter({ hasText: 'wrong-client' });
      assert.deepEqual(await row.getByRole('cell').allTextContents(), [
        'corp',
        'wrong-client',
        '(set)',
        idp.issuer,
        'EditRemove',
      ]);
      await assertNamedControls(page);

      // Change the client id only: the secret field stays empty, and the saved secret is kept.
      await section.getByRole('button', { name: 'Edit provider corp' }).click();
      const form = section.getByRole('form', { name: 'Change provider corp' });
      assert.equal(await form.getByLabel('Issuer (OpenID Connect)').inputValue(), idp.issuer);
      assert.equal(await form.getByLabel('Client secret').inputValue(), '');
      await form.getByLabel('Client id').fill(idp.clientId);
      await form.getByRole('button', { name: 'Save provider corp' }).click();
      await section.getByRole('row').filter({ hasText: idp.clientId }).getByText('(set)').waitFor();

      // The provider now signs a user in (the secret kept works), who shows on their page.
      const state = randomUUID();
      const start = `${coffer.baseUrl}/api/v1/oauth/corp?${new URLSearchParams({
        state,
        sb_app_id: coffer.credentials.appId,
        sb_app_secret: coffer.credentials.appSecret,
      })}`;
      const callback = await signInThroughIdp(start, 'alice');
      assert.equal(callback.status, 200, await callback.text());
      const token = await coffer.client.call('GET', `/api/v1/oauth/corp/token?state=${state}`);
      assert.equal(token.status, 200, token.text);
      await page.goto(consoleUrl(`users/${token.body.userId}`));
      const identities = page.getByRole('region', { name: 'Sign-in identities' });
      await identities.getByRole('cell', { name: 'alice@example.com' }).waitFor();
      assert.deepEqual(await identities.getByRole('row').nth(1).getByRole('cell').allTextContents(), [
        'corp',
        'alice',
        'alice',
        'alice@example.com',
      ]);

      // Remove it (the confirmation accepted): gone from the page and from the settings in force.
      await page.goto(consoleUrl('settings'));
      await section.getByRole('button', { name: 'Remove provider corp' }).click();
      await section.getByRole('status').filter({ hasText: 'Removed provider corp.' }).waitFor();
      await section.getByText('None.').waitFor();
      const projects = await call('GET', '/projects');
      const project = projects.body.projects.find((one: { id: string }) => one.id === projectId);
      assert.deepEqual(project.settings.oauth, {});

      const seen = await Promise.all(answers);
      assert.ok(seen.length > 0);
      assert.ok(
        seen.every((body) => !body.includes(idp.clientSecret)),
        'the client secret never reaches the browser',
      );
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });
});
