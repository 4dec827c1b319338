import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Browser, Download } from 'playwright-core';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import {
  assertNamedControls,
  launchChromium,
  openPage,
  signIn,
  skipWithoutChromium,
} from '../support/console-browser.ts';
import { signInToConsole } from '../support/console-client.ts';

// Issue 40 in the console, in Chromium: the files page's search box (name and type, across
// owners), a selection of files downloaded as one zip, and a folder's "Download as zip"; the
// browser's downloads are checked with Debian's unzip, and the page's policy lets them through.
describe('the console search box and zip downloads, in headless Chromium', {
  skip: skipWithoutChromium,
}, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  let alice: Awaited<ReturnType<CofferProcess['client']['signup']>>;

  before(async () => {
    coffer = await startCofferProcess();
    await signInToConsole(coffer);
    alice = await coffer.client.signup('alice@find.example');
    const bob = await coffer.client.signup('bob@find.example');
    for (const [filePath, type] of [
      ['trip/Beach.png', 'image/png'],
      ['trip/beach-notes.txt', 'text/plain'],
      ['trip/day2/sea.txt', 'text/plain'],
    ] as const)
      await coffer.client.uploadFile(alice.token, filePath, `content of ${filePath}`, { contentType: type });
    await coffer.client.uploadFile(bob.token, 'mine/beachball.txt', 'bob’s ball');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  /** The names inside a download, read by unzip (which also tests every entry's CRC). */
  async function namesIn(download: Download): Promise<string[]> {
    const file = await download.path();
    execFileSync('unzip', ['-tq', file]);
    return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
  }

  it('searches by name and type across owners, and downloads the ticked files as one zip', async () => {
    const { page, problems } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/files`);
      await page.getByRole('button', { name: 'trip/day2/sea.txt' }).waitFor();
      const search = page.getByRole('form', { name: 'Search files' });
      await search.getByLabel('Name contains').fill('BEACH');
      await search.getByRole('button', { name: 'Search', exact: true }).click();
      // The whole listing was there first: the search's answer is in once sea.txt goes.
      await page.getByRole('button', { name: 'trip/day2/sea.txt' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'mine/beachball.txt' }).waitFor();
      await page.getByRole('button', { name: 'trip/Beach.png' }).waitFor();
      await page.getByRole('button', { name: 'trip/beach-notes.txt' }).waitFor();

      await search.getByLabel('Type').fill('text/*');
      await search.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('button', { name: 'trip/Beach.png' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'mine/beachball.txt' }).waitFor();
      await assertNamedControls(page);

      const zipButton = page.getByRole('button', { name: /Download selected as zip/ });
      assert.equal(await zipButton.isDisabled(), true, 'nothing ticked yet');
      await page.getByLabel('Select mine/beachball.txt').check();
      await page.getByLabel('Select trip/beach-notes.txt').check();
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download selected as zip (2)' }).click();
      const download = await downloading;
      assert.deepEqual(await namesIn(download), ['mine/beachball.txt', 'trip/beach-notes.txt']);
      await page.getByRole('status').filter({ hasText: 'Downloading 2 files as one zip' }).waitFor();

      await search.getByRole('button', { name: 'Clear search' }).click();
      await page.getByRole('button', { name: 'trip/day2/sea.txt' }).waitFor();
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });

  it("downloads a folder's whole subtree as one zip from its folder actions", async () => {
    const { page, problems } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/files`);
      await page.getByRole('link', { name: 'Folders' }).click();
      await page.getByLabel('Owner (email or user id)').fill(alice.email);
      await page.getByRole('button', { name: 'Browse folders' }).click();
      await page.getByRole('link', { name: 'trip/' }).click();
      await page.getByRole('link', { name: 'day2/' }).waitFor();
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download as zip' }).click();
      const download = await downloading;
      assert.deepEqual(await namesIn(download), ['Beach.png', 'beach-notes.txt', 'day2/sea.txt']);
      await page.getByRole('status').filter({ hasText: 'Downloading 3 files as one zip' }).waitFor();
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });
});
