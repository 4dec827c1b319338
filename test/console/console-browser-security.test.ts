import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { launchChromium, openPage, signIn, skipWithoutChromium } from '../support/console-browser.ts';
import { signInToConsole } from '../support/console-client.ts';

function sessionOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
}

// Issue 41, item 6, in Chromium: the user page's Security area lists the user's sessions, and
// the operator ends one, then all; the user's tokens are refused.
describe('the console’s Security area of a user, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  before(async () => {
    coffer = await startCofferProcess();
    await signInToConsole(coffer);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  it('lists the sessions with their user agents and ends one, then all', async () => {
    const user = await coffer.client.signup('security-area@example.com');
    const phone = await coffer.client.call('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
      headers: { 'user-agent': 'Phone/2.0 (test)' },
    });
    assert.equal(phone.status, 200, phone.text);
    const profile = async (token: string) =>
      (await coffer.client.call('GET', '/api/v1/user', { token })).status;
    const { page, problems } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(
        `${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/users/${user.userId}`,
      );
      const security = page.getByRole('region', { name: 'Security' });
      await security.getByRole('cell', { name: 'Phone/2.0 (test)' }).waitFor();
      assert.equal(await security.getByRole('button', { name: /^End the session / }).count(), 2);
      await security.getByRole('button', { name: `End the session ${sessionOf(phone.body.token)}` }).click();
      await security.getByText(/Ended the session from/).waitFor();
      assert.equal(await security.getByRole('cell', { name: 'Phone/2.0 (test)' }).count(), 0);
      assert.equal(await profile(phone.body.token), 401);
      assert.equal(await profile(user.token), 200);
      await security.getByRole('button', { name: `End every session of ${user.email}` }).click();
      await security.getByText('Not signed in anywhere.').waitFor();
      assert.equal(await profile(user.token), 401);
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });
});
