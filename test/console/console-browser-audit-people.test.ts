import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { launchChromium, openPage, signIn, skipWithoutChromium } from '../support/console-browser.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

// Issue 43 item 6 in Chromium: the audit log shows people by email beside their ids, and the
// settings form tells why magicLink=true alone is refused.
describe('people, not ids, in the console (headless Chromium)', { skip: skipWithoutChromium }, () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let browser: Browser;
  let projectId: string;
  const consoleUrl = (route: string) => `${coffer.baseUrl}/console#/projects/${projectId}/${route}`;

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
    projectId = coffer.credentials.projectId;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  it('the audit log names the operator and the user an event is about by email; magicLink alone is refused with the reason', async () => {
    const created = await call('POST', `/projects/${projectId}/users`, {
      email: 'dana@example.com',
      password: 'a long enough passphrase',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { page, problems } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(consoleUrl('audit'));
      const row = page.locator('tr').filter({ hasText: 'user.created' }).first();
      await row.waitFor();
      await row.getByText('dana@example.com').waitFor();
      await row.getByText('ops@example.com').waitFor();

      await page.goto(consoleUrl('settings'));
      await page.getByRole('checkbox', { name: 'magicLink' }).check();
      await page.getByRole('button', { name: 'Save settings' }).click();
      const settings = page.getByRole('form', { name: 'Settings' });
      await settings.getByRole('alert').waitFor();
      assert.match(
        (await settings.getByRole('alert').textContent()) ?? '',
        /magicLink=true needs accountLinkUrl/,
      );
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });
});
