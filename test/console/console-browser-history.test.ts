import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import {
  assertNamedControls,
  launchChromium,
  openPage,
  picture,
  signIn,
  skipWithoutChromium,
} from '../support/console-browser.ts';
import { signInToConsole } from '../support/console-client.ts';

// Issue 38 in the console, in Chromium: an operator restores an earlier version of a file, holds
// and releases it, deletes it to the trash, and restores it from the Trash page at a new path.
describe('the console’s versions, holds and trash, in headless Chromium', {
  skip: skipWithoutChromium,
}, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  let alice: Awaited<ReturnType<CofferProcess['client']['signup']>>;
  let bob: Awaited<ReturnType<CofferProcess['client']['signup']>>;
  let fileId: string;
  let bobsFile: string;

  /** New content for the file through the public API's three steps. */
  const replace = async (token: string, id: string, content: string) => {
    const requested = await coffer.client.call('POST', `/api/v1/file/${id}/versions`, { token, body: {} });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: content,
      headers: { 'content-type': 'text/plain' },
    });
    const verified = await coffer.client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
  };
  const bytesOf = async (id: string) => {
    const record = await coffer.client.call('GET', `/api/v1/file/${id}`, { token: alice.token });
    assert.equal(record.status, 200, record.text);
    return { filePath: record.body.filePath as string, text: await (await fetch(record.body.url)).text() };
  };

  before(async () => {
    coffer = await startCofferProcess();
    await signInToConsole(coffer);
    alice = await coffer.client.signup('alice@example.com');
    bob = await coffer.client.signup('bob@example.com');
    fileId = (await coffer.client.uploadFile(alice.token, 'notes/plan.txt', 'first draft'))._id;
    await replace(alice.token, fileId, 'second draft');
    bobsFile = (await coffer.client.uploadFile(bob.token, 'old/list.txt', 'milk'))._id;
    assert.equal(
      (await coffer.client.call('DELETE', `/api/v1/file/${bobsFile}`, { token: bob.token })).status,
      204,
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  it('restores an earlier version, holds and releases the file, and restores it from the trash', async () => {
    const { page, problems, dialogs } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      const projectId = coffer.credentials.projectId;
      await page.goto(`${coffer.baseUrl}/console#/projects/${projectId}/files/${fileId}`);
      const preview = page.getByRole('figure', { name: 'Preview of notes/plan.txt' });
      await preview.getByText('second draft').waitFor();

      // The versions, the current first; the first version's id is the file's own.
      await page.getByRole('heading', { name: 'Versions' }).waitFor();
      const versionRows = page.getByRole('row').filter({ has: page.locator('td code') });
      assert.equal(await versionRows.count(), 2);
      assert.match((await versionRows.first().textContent()) ?? '', /current/);
      const first = versionRows.filter({ hasText: fileId });
      assert.match((await first.textContent()) ?? '', /alice@example\.com/);
      await first.getByRole('button', { name: /^Restore version of/ }).click();
      await page.getByRole('status').filter({ hasText: 'it is current now' }).waitFor();
      await preview.getByText('first draft').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('table tbody tr td code').length === 3);
      assert.equal((await bytesOf(fileId)).text, 'first draft', 'the owner reads the restored bytes');
      await assertNamedControls(page);
      await picture(page, 'versions');

      // On hold, nothing changes the file's versions; released, it is as before.
      await page.getByLabel('Hold reason').fill('audit 2026');
      await page.getByRole('button', { name: 'Hold file' }).click();
      await page.getByText(/On hold since .*audit 2026/).waitFor();
      const restoreButtons = page.getByRole('button', { name: /^Restore version of/ });
      assert.equal(await restoreButtons.first().isDisabled(), true);
      await page.getByRole('button', { name: 'Release hold' }).click();
      await page.getByRole('button', { name: 'Hold file' }).waitFor();
      assert.equal(await restoreButtons.first().isDisabled(), false);

      // Deleted: to the trash (the confirmation says so), gone from the owner's view.
      await page.getByRole('button', { name: 'Delete file' }).click();
      await page.getByRole('heading', { name: 'File notes/plan.txt' }).waitFor({ state: 'detached' });
      assert.match(dialogs.at(-1) ?? '', /goes to the trash for 30 days/);
      const gone = await coffer.client.call('GET', `/api/v1/file/${fileId}`, { token: alice.token });
      assert.equal(gone.status, 404);

      // The Trash page: every owner's, newest first; restored at a new path.
      await page.getByRole('link', { name: 'Trash' }).click();
      const planRow = page.getByRole('row').filter({ hasText: 'notes/plan.txt' });
      await planRow.waitFor();
      const paths = await page.locator('table tbody tr td:first-child').allTextContents();
      assert.deepEqual(paths, ['notes/plan.txt', 'old/list.txt']);
      await picture(page, 'trash');
      await planRow.getByRole('button', { name: 'Restore notes/plan.txt at another path' }).click();
      await page.getByRole('textbox', { name: 'Restore notes/plan.txt at' }).fill('kept/plan.txt');
      await page.getByRole('button', { name: 'Restore here' }).click();
      await page.getByRole('status').getByRole('link', { name: 'kept/plan.txt' }).waitFor();
      await planRow.waitFor({ state: 'detached' });
      assert.deepEqual(await bytesOf(fileId), { filePath: 'kept/plan.txt', text: 'first draft' });

      // One owner's trash, filtered by email; an item purged after a confirmation.
      await page.getByLabel('Owner (email or user id)').fill('bob@example.com');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('button', { name: 'Empty trash of bob@example.com' }).waitFor();
      await page.getByRole('button', { name: 'Purge old/list.txt' }).click();
      await page.getByText('The trash is empty.').waitFor();
      assert.match(dialogs.at(-1) ?? '', /Purge old\/list\.txt for good/);
      const bobsTrash = await coffer.client.call('GET', '/api/v1/trash', { token: bob.token });
      assert.deepEqual(bobsTrash.body.items, []);
      await assertNamedControls(page);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
