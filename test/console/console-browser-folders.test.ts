import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import {
  assertNamedControls,
  launchChromium,
  layoutShiftOf,
  openPage,
  picture,
  signIn,
  skipWithoutChromium,
} from '../support/console-browser.ts';
import { signInToConsole } from '../support/console-client.ts';
import { pngImage } from '../support/test-images.ts';

// Issue 36 in the console, in Chromium: an operator browses one owner's folders (breadcrumbs,
// subfolders with the files and bytes of their subtrees), moves one (a refused move says why
// beside its field), deletes one (asked first), and the view stays still as its data arrives.
describe('the console folder view, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  let alice: Awaited<ReturnType<CofferProcess['client']['signup']>>;
  let bob: Awaited<ReturnType<CofferProcess['client']['signup']>>;
  const ids: Record<string, string> = {};
  const recordOf = (path: string) =>
    coffer.client.call('GET', `/api/v1/file/${ids[path]}`, { token: alice.token });

  before(async () => {
    coffer = await startCofferProcess();
    await signInToConsole(coffer);
    alice = await coffer.client.signup('alice@example.com');
    bob = await coffer.client.signup('bob@example.com');
    const png = await pngImage({ width: 320, height: 200 });
    for (const [path, content] of [
      ['trip/beach.png', png],
      ['trip/notes.txt', 'sun, sand'],
      ['trip/day2/sea.txt', 'waves'],
      ['kept/beach.png', png],
      ['readme.txt', 'hello'],
    ] as const) {
      const type = path.endsWith('.png') ? { contentType: 'image/png' } : {};
      ids[path] = (await coffer.client.uploadFile(alice.token, path, content, type))._id;
    }
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  it('browses, moves and deletes a folder with breadcrumbs and sizes; deleting asks first', async () => {
    const { page, problems, dialogs, dialogAnswers } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/files`);
      await page.getByRole('link', { name: 'Folders' }).click();
      await page.getByLabel('Owner (email or user id)').fill('nobody@example.com');
      await page.getByRole('button', { name: 'Browse folders' }).click();
      await page.getByRole('alert').filter({ hasText: 'No such user' }).waitFor();
      await page.getByLabel('Owner (email or user id)').fill('Alice@Example.com');
      await page.getByRole('button', { name: 'Browse folders' }).click();

      // The root: the owner's subtree, the subfolders with theirs, the files directly in it.
      const crumbs = page.getByRole('navigation', { name: 'Folder path' });
      await crumbs.getByText('alice@example.com').waitFor();
      await page.getByText('5 files').waitFor();
      const trip = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'trip/' }) });
      assert.deepEqual((await trip.getByRole('cell').allTextContents()).slice(1, 2), ['3']);
      await page.getByRole('button', { name: 'readme.txt' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Delete folder' }).count(), 0, 'the root is kept');

      // Into a subfolder: its own files by name, its subfolder, the way back.
      await page.getByRole('link', { name: 'trip/' }).click();
      await crumbs.getByText('trip', { exact: true }).waitFor();
      assert.equal(await crumbs.locator('[aria-current="page"]').textContent(), 'trip');
      await page.getByRole('link', { name: 'day2/' }).waitFor();
      await page.getByRole('button', { name: 'trip/notes.txt' }).waitFor();
      assert.equal(
        await page.getByRole('button', { name: 'trip/day2/sea.txt' }).count(),
        0,
        'direct files only',
      );
      // The folder has an address: a reload shows it again.
      await page.reload();
      await page.getByRole('button', { name: 'trip/beach.png' }).click();
      await page.getByRole('heading', { name: 'File trip/beach.png' }).waitFor();
      // A file's record links to its folder (here and on the Files tab).
      await page.locator('dl.record').getByRole('link', { name: 'trip/' }).waitFor();

      // A move onto a taken path moves nothing and says why beside its field.
      const target = page.getByLabel('Move or rename to');
      await target.fill('kept');
      await page.getByRole('button', { name: 'Move folder' }).click();
      const refused = page.locator('form').getByRole('alert');
      await refused.filter({ hasText: 'kept/beach.png' }).waitFor();
      assert.equal((await recordOf('trip/beach.png')).body.filePath, 'trip/beach.png');
      await target.fill('holiday/2026');
      await refused.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Move folder' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Moved 3 files from trip/ to holiday/2026/' })
        .waitFor();
      assert.equal(await crumbs.locator('[aria-current="page"]').textContent(), '2026');
      await crumbs.getByRole('link', { name: 'holiday' }).waitFor();
      assert.ok(page.url().endsWith('/holiday%2F2026%2F'), page.url());
      assert.equal((await recordOf('trip/beach.png')).body.filePath, 'holiday/2026/beach.png');
      await picture(page, 'folders');

      // Deleting asks first, naming what goes: declined, nothing goes.
      dialogAnswers.push(false);
      const asked = dialogs.length;
      await page.getByRole('button', { name: 'Delete folder' }).click();
      while (dialogs.length === asked) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.match(dialogs.at(-1) ?? '', /Delete the folder holiday\/2026\/ and everything in it \(3 files/);
      assert.equal((await recordOf('trip/notes.txt')).status, 200, 'a declined delete deletes nothing');
      await page.getByRole('button', { name: 'Delete folder' }).click();
      // holiday/ held nothing else: the view goes up to the nearest folder left, the root.
      await page.getByRole('status').filter({ hasText: 'Deleted holiday/2026/: 3 files' }).waitFor();
      assert.equal(await crumbs.locator('[aria-current="page"]').textContent(), 'alice@example.com');
      assert.equal(await page.getByRole('link', { name: 'holiday/' }).count(), 0);
      await page.getByText('2 files').waitFor();
      for (const path of ['trip/beach.png', 'trip/notes.txt', 'trip/day2/sea.txt'])
        assert.equal((await recordOf(path)).status, 404, path);
      await assertNamedControls(page);

      // A folder opened by its address appears whole: nothing on screen moves as it arrives.
      const url = `${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/folders/${alice.userId}/kept%2F`;
      const { shifts } = await layoutShiftOf(page, url, async () => {
        await page.getByRole('button', { name: 'kept/beach.png' }).waitFor();
        await page.getByText('Loading…').waitFor({ state: 'detached' });
      });
      assert.deepEqual(shifts, []);
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });

  it('shares a folder from its dialog: listed with its folder, read by the grantee, removed after a confirm', async () => {
    const { page, problems, dialogs } = await openPage(browser);
    const bobReads = async () =>
      (await coffer.client.call('GET', `/api/v1/file/${ids['kept/beach.png']}`, { token: bob.token })).status;
    // A share of the root reaches kept/ too: listed there, on its own folder, removable only there.
    const rootShare = await coffer.client.call('POST', '/api/v1/folders/share', {
      token: alice.token,
      body: { path: '', role: 'auditor' },
    });
    assert.equal(rootShare.status, 200, JSON.stringify(rootShare.body));
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(
        `${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/folders/${alice.userId}/kept%2F`,
      );
      await page.getByRole('button', { name: 'Share folder' }).click();
      const dialog = page.getByRole('dialog', { name: 'Share kept/' });
      const shares = dialog.getByRole('list', { name: 'Shares' });
      const inherited = shares.getByRole('listitem').filter({ hasText: 'role auditor' });
      await inherited.getByRole('link', { name: 'the owner’s root' }).waitFor();
      assert.equal(await inherited.getByRole('button').count(), 0, "an ancestor's share is removed there");

      // A refusal is told beside the form, in the service's words.
      await dialog.getByLabel('Email or role').fill('nobody@example.com');
      await dialog.getByRole('button', { name: 'Add share' }).click();
      await dialog.locator('form').getByRole('alert').filter({ hasText: 'No such user' }).waitFor();

      assert.equal(await bobReads(), 403);
      await dialog.getByLabel('Email or role').fill('bob@example.com');
      await dialog.getByRole('button', { name: 'Add share' }).click();
      const bobsShare = shares.getByRole('listitem').filter({ hasText: 'bob@example.com' });
      await bobsShare.filter({ hasText: 'on this folder' }).waitFor();
      assert.equal(await bobReads(), 200, 'the grantee reads a file under the folder');
      await assertNamedControls(page);
      await picture(page, 'folder-share');

      // Removing asks first (it ends the links of every file under the folder), then it is gone.
      const asked = dialogs.length;
      await bobsShare.getByRole('button', { name: 'Remove the share with bob@example.com' }).click();
      await dialog
        .getByRole('status')
        .filter({ hasText: 'Stopped sharing kept/ with bob@example.com' })
        .waitFor();
      assert.match(dialogs[asked] ?? '', /Stop sharing kept\/ with bob@example.com\? Every link/);
      assert.equal(await bobsShare.count(), 0);
      assert.equal(await bobReads(), 403, 'unshared: the grantee reads it no more');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });

  it('fits a phone-sized screen', async () => {
    const { page, problems } = await openPage(browser, { width: 390, height: 844 });
    try {
      await signIn(page, coffer.baseUrl);
      await page.goto(
        `${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/folders/${alice.userId}`,
      );
      await page.getByRole('link', { name: 'kept/' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `the folder view is wider than the screen by ${overflow}px`);
      // The root may be shared too; its dialog fits the screen.
      await page.getByRole('button', { name: 'Share folder' }).click();
      const dialog = page.getByRole('dialog', { name: 'Share the owner’s root' });
      await dialog.getByRole('button', { name: 'Add share' }).waitFor();
      await dialog.getByText('Loading…').waitFor({ state: 'detached' });
      const box = (await dialog.boundingBox())!;
      assert.ok(
        box.x >= 0 && box.x + box.width <= 390,
        `the share dialog spans ${box.x}…${box.x + box.width}px`,
      );
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
