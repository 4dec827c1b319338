import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

/** Debian's chromium (.ci/run installs it). */
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));
const imagesDir = path.resolve(import.meta.dirname, '../../docs/images');
const password = 'operator passphrase 42';

// The console in a real browser: what is built so far (sign-in, the session kept across a
// reload, sign-out). COFFER_SCREENSHOTS=1 writes the pages' pictures into docs/images.
describe('the console in headless Chromium', {
  skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)',
}, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  before(async () => {
    coffer = await startCofferProcess();
    const created = await runCli(
      ['operator', 'create', '--email', 'ops@example.com', '--password-stdin', '--data-dir', coffer.dataDir],
      coffer.env,
      { input: password },
    );
    assert.equal(created.code, 0, created.stderr);
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  it('signs in, stays signed in across a reload, signs out; a wrong password is told', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      await page.goto(`${coffer.baseUrl}/console`);
      await page.getByLabel('Email').fill('ops@example.com');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /wrong/i);
      if (process.env.COFFER_SCREENSHOTS === '1')
        await page.screenshot({ path: path.join(imagesDir, 'console-sign-in.png') });

      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Signed in as ops@example.com' }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Signed in as ops@example.com' }).waitFor();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.deepEqual(violations, [], 'nothing the strict policy had to block');
    } finally {
      await page.close();
    }
  });
});
