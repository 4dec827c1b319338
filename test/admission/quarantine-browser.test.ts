import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { scanProject } from '../../src/cli/scan-command.ts';
import { loadConfig } from '../../src/config/config.ts';
import { type Clamd, clamdMissing, clamdScanner, eicarBytes, startClamd } from '../support/clamd.ts';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import {
  assertNamedControls,
  launchChromium,
  openPage,
  signIn,
  skipWithoutChromium,
} from '../support/console-browser.ts';
import { signInToConsole } from '../support/console-client.ts';

// Issue 42 in the console, in Chromium: the Quarantine tab lists what a re-scan found, and an
// operator releases one file and deletes another.
describe('the console’s Quarantine tab, in headless Chromium', {
  skip: skipWithoutChromium || clamdMissing || false,
}, () => {
  let coffer: CofferProcess;
  let clamd: Clamd;
  let browser: Browser;
  let owner: Awaited<ReturnType<CofferProcess['client']['signup']>>;
  const ids: Record<string, string> = {};

  before(async () => {
    clamd = await startClamd();
    coffer = await startCofferProcess();
    await signInToConsole(coffer);
    owner = await coffer.client.signup('owner@example.com');
    for (const name of ['keep.com', 'drop.com'])
      ids[name] = (await coffer.client.uploadFile(owner.token, `scanned/${name}`, eicarBytes()))._id;
    await scanProject(loadConfig({ 'data-dir': coffer.dataDir }, coffer.env), {
      project: 'default',
      scanner: clamdScanner(clamd),
      progress: { phase() {}, advance() {}, finish() {} },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
    await clamd?.close();
  });

  const status = async (id: string) =>
    (await coffer.client.call('GET', `/api/v1/file/${id}`, { token: owner.token })).status;

  it('lists quarantined files with their signature; releases one, deletes the other', async () => {
    const { page, problems, dialogs } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/quarantine`);
      await page.getByRole('heading', { name: 'Quarantined files' }).waitFor();
      for (const name of ['keep.com', 'drop.com'])
        await page.getByRole('link', { name: `scanned/${name}` }).waitFor();
      assert.equal(await page.getByText(/Coffer\.Test\.EICAR/).count(), 2);
      await assertNamedControls(page);

      await page.getByRole('button', { name: 'Release scanned/keep.com' }).click();
      await page.getByRole('status').filter({ hasText: 'Released scanned/keep.com.' }).waitFor();
      assert.match(dialogs.at(-1) ?? '', /Release scanned\/keep\.com\?/);
      assert.equal(await status(ids['keep.com']!), 200);

      await page.getByRole('button', { name: 'Delete scanned/drop.com' }).click();
      await page.getByText('No file is quarantined.').waitFor();
      assert.equal(await status(ids['drop.com']!), 404);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
