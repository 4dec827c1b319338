import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import {
  launchChromium,
  layoutShiftOf,
  openPage,
  signIn,
  skipWithoutChromium,
} from '../support/console-browser.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { pngImage } from '../support/test-images.ts';

const userPassword = 'a long enough passphrase';

// Issue 24, "a console for people", in Chromium: settings as typed controls showing the values
// in force, errors told at their own form that clear, an address for every user, files dropped
// on the list uploaded, and pages that stay still while their data arrives.
describe('the console for people, in headless Chromium', { skip: skipWithoutChromium }, () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let browser: Browser;
  let projectId: string;
  let aliceId: string;
  const consoleUrl = (route: string) => `${coffer.baseUrl}/console#/projects/${projectId}/${route}`;
  const createUser = async (email: string) => {
    const created = await call('POST', `/projects/${projectId}/users`, { email, password: userPassword });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.user.userId as string;
  };
  const settingsInForce = async () =>
    (await call('GET', '/projects')).body.projects.find((project: { id: string }) => project.id === projectId)
      .settings;
  /** A page signed in as the operator; fails the test on a policy violation or script error. */
  const withPage = async (journey: (page: Page) => Promise<void>) => {
    const { page, problems } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      await journey(page);
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  };

  before(async () => {
    // A webhook on this machine (the layout check lists one) is refused unless private hosts are allowed.
    coffer = await startCofferProcess({ env: { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    call = await signInToConsole(coffer);
    projectId = coffer.credentials.projectId;
    aliceId = await createUser('alice@example.com');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  it('edits settings with controls of their type, showing the values in force and the defaults', () =>
    withPage(async (page) => {
      await page.goto(consoleUrl('settings'));
      const renditions = page.getByLabel('renditions', { exact: true });
      const flag = 'oauthLinkByEmail'; // a lone boolean: magicLink now wants accountLinkUrl too
      const linkByEmail = page.getByRole('checkbox', { name: flag });
      const presigned = page.getByRole('spinbutton', { name: 'presignedDownloadMaxSeconds' });
      const maxSize = page.getByRole('spinbutton', { name: 'maxFileSizeBytes' });
      const row = (name: string) =>
        page.locator('.setting').filter({ has: page.locator(`#setting-${name}`) });
      const isDefault = (name: string) => row(name).getByText('default', { exact: true }).count();
      await renditions.waitFor();
      // Nothing set yet: every control shows the default in force, marked so.
      assert.deepEqual(await renditions.locator('option').allTextContents(), ['any', 'presets', 'off']);
      assert.equal(await renditions.inputValue(), 'any');
      assert.equal(await linkByEmail.isChecked(), false);
      assert.equal(await presigned.inputValue(), '300');
      assert.deepEqual(
        [await presigned.getAttribute('min'), await presigned.getAttribute('max')],
        ['1', '604800'],
      );
      assert.equal(await maxSize.inputValue(), '');
      assert.equal(await maxSize.getAttribute('placeholder'), 'none');
      for (const name of ['renditions', flag, 'presignedDownloadMaxSeconds', 'maxFileSizeBytes'])
        assert.equal(await isDefault(name), 1, `${name} is marked default`);

      await renditions.selectOption('presets');
      await linkByEmail.check();
      await presigned.fill('600');
      await maxSize.fill('10485760');
      await row('maxFileSizeBytes').getByText('(10.0 MiB)').waitFor();
      await row('renditions').getByText('not saved').waitFor();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const saved = await settingsInForce();
      assert.deepEqual(
        [saved.renditions, saved[flag], saved.presignedDownloadMaxSeconds, saved.maxFileSizeBytes],
        ['presets', true, 600, 10 * 1024 * 1024],
      );

      // After a reload: the values in force, none of them the default any more.
      await page.reload();
      await renditions.waitFor();
      assert.equal(await renditions.inputValue(), 'presets');
      assert.equal(await linkByEmail.isChecked(), true);
      assert.equal(await presigned.inputValue(), '600');
      assert.equal(await maxSize.inputValue(), '10485760');
      assert.equal(await isDefault('renditions'), 0);
      // Back to the defaults, one button each.
      await page.getByRole('button', { name: 'Use the default of renditions' }).click();
      assert.equal(await renditions.inputValue(), 'any');
      assert.equal(await isDefault('renditions'), 1);
      await page.getByRole('button', { name: 'Use the default of presignedDownloadMaxSeconds' }).click();
      await page.getByRole('button', { name: 'Use the default of maxFileSizeBytes' }).click();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const restored = await settingsInForce();
      assert.deepEqual(
        [
          restored.renditions,
          restored[flag],
          restored.presignedDownloadMaxSeconds,
          restored.maxFileSizeBytes,
        ],
        ['any', true, 300, null],
      );
      await page.reload();
      await renditions.waitFor();
      assert.equal(await renditions.inputValue(), 'any');
      assert.equal(await presigned.inputValue(), '300');
      assert.equal(await isDefault('renditions'), 1);
      assert.equal(await isDefault(flag), 0, 'what was not reset stays');
    }));

  it('tells a failed form its error beside it, and clears it on an edit or a success', () =>
    withPage(async (page) => {
      await page.goto(consoleUrl('settings'));
      const settings = page.getByRole('form', { name: 'Settings' });
      const types = page.getByRole('textbox', { name: 'allowedContentTypes' });
      await types.fill('pictures');
      await page.getByRole('button', { name: 'Save settings' }).click();
      // The service's own words, inside the form that failed, and nowhere else.
      await settings.getByRole('alert').waitFor();
      assert.match(
        (await settings.getByRole('alert').textContent()) ?? '',
        /"pictures" is not a type\/subtype/,
      );
      assert.equal(await page.getByRole('alert').count(), 1);
      await types.fill('image/*');
      await settings.getByRole('alert').waitFor({ state: 'detached' });

      // An email taken: said at the new-user form; the same form sent again once it is free succeeds.
      await createUser('carol@example.com');
      await page.goto(consoleUrl('users'));
      const newUser = page.getByRole('region', { name: 'New user' });
      await newUser.getByLabel('Email').fill('carol@example.com');
      await newUser.getByLabel('Password').fill(userPassword);
      await newUser.getByRole('button', { name: 'Create user' }).click();
      await newUser.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
      assert.equal(await page.getByRole('region', { name: 'Users' }).getByRole('alert').count(), 0);
      const carol = (await call('GET', `/projects/${projectId}/users?email=carol@example.com`)).body.users[0];
      assert.equal((await call('DELETE', `/projects/${projectId}/users/${carol.userId}`)).status, 200);
      await newUser.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('status').filter({ hasText: 'Created carol@example.com' }).waitFor();
      assert.equal(await newUser.getByRole('alert').count(), 0);
    }));

  it('gives every user an address that opens them, after a reload too', () =>
    withPage(async (page) => {
      const daveId = await createUser('dave@example.com');
      await page.goto(consoleUrl('users'));
      const daveLink = page.getByRole('link', { name: 'dave@example.com' });
      assert.equal(await daveLink.getAttribute('title'), `user id ${daveId}`, 'the id on hover');
      await daveLink.click();
      await page.getByRole('heading', { name: 'User dave@example.com' }).waitFor();
      assert.ok(page.url().endsWith(`/users/${daveId}`), page.url());
      await page.locator('dl.record').getByText(daveId).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'User dave@example.com' }).waitFor();
      await page.getByRole('textbox', { name: 'Role of dave@example.com' }).fill('editor');
      await page.getByRole('button', { name: 'Save role of dave@example.com' }).click();
      await page.getByRole('status').filter({ hasText: 'Updated dave@example.com' }).waitFor();
      // The address, opened anew (a link someone shared), and one that names no user.
      await page.goto('about:blank');
      await page.goto(consoleUrl(`users/${daveId}`));
      await page.locator('dl.record').getByText(daveId).waitFor();
      assert.equal(
        await page.getByRole('textbox', { name: 'Role of dave@example.com' }).inputValue(),
        'editor',
      );
      await page.getByRole('link', { name: 'All users' }).click();
      await page.getByRole('cell', { name: 'editor' }).waitFor();
      await page.goto(consoleUrl('users/no-such-user'));
      await page.getByRole('alert').filter({ hasText: 'No such user' }).waitFor();
    }));

  it('uploads the files dropped on the file list for the owner named', () =>
    withPage(async (page) => {
      await page.goto(consoleUrl('files'));
      const list = page.getByRole('region', { name: /^File list/ });
      await list.waitFor();
      const png = await pngImage({ width: 320, height: 200 });
      const dropped = [
        { name: 'dropped.png', type: 'image/png', base64: png.toString('base64') },
        { name: 'notes.txt', type: 'text/plain', base64: Buffer.from('dropped notes\n').toString('base64') },
      ];
      // The files a person drags from their desktop, as the browser hands them to the page.
      const dataTransfer = await page.evaluateHandle((files) => {
        const data = new DataTransfer();
        for (const file of files) {
          const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
          data.items.add(new File([bytes], file.name, { type: file.type }));
        }
        return data;
      }, dropped);
      // No owner named yet: the zone says so while dragged over, and the drop is refused beside it.
      await list.dispatchEvent('dragenter', { dataTransfer });
      await list.getByText('Name the owner in the upload form first').waitFor();
      await list.dispatchEvent('drop', { dataTransfer });
      const files = page.getByRole('region', { name: 'Files' });
      await files.getByRole('alert').filter({ hasText: 'Name the owner' }).waitFor();

      await page.getByLabel('Owner email').fill('alice@example.com');
      await list.dispatchEvent('dragenter', { dataTransfer });
      await list.getByText('Drop to upload for alice@example.com').waitFor();
      assert.match((await list.getAttribute('class')) ?? '', /\bdragging\b/);
      await list.dispatchEvent('dragleave', { dataTransfer });
      await list.getByText('Drop to upload for').waitFor({ state: 'detached' });
      await list.dispatchEvent('dragenter', { dataTransfer });
      await list.dispatchEvent('drop', { dataTransfer });
      await page
        .getByRole('status')
        .filter({ hasText: 'Uploaded dropped.png, notes.txt for alice@example.com' })
        .waitFor();
      await list.getByRole('button', { name: 'dropped.png' }).waitFor();
      await list.getByRole('button', { name: 'notes.txt' }).waitFor();
      assert.doesNotMatch((await list.getAttribute('class')) ?? '', /\bdragging\b/);
      assert.equal(await files.getByRole('alert').count(), 0, 'the refusal went with the next drop');
      const listed = await call('GET', `/projects/${projectId}/files?owner=${aliceId}`);
      const byPath = new Map(listed.body.files.map((file: { filePath: string }) => [file.filePath, file]));
      for (const file of dropped) {
        const record = byPath.get(file.name) as { verified: boolean; meta: { ContentLength: string } };
        assert.ok(record?.verified, `${file.name} is verified`);
        assert.equal(Number(record.meta.ContentLength), Buffer.from(file.base64, 'base64').length);
      }
      // The owner shown in the list opens their page.
      await list.getByRole('link', { name: 'alice@example.com' }).first().click();
      await page.getByRole('heading', { name: 'User alice@example.com' }).waitFor();
    }));

  it('keeps every main page still while its data arrives (cumulative layout shift below 0.1)', async () => {
    const fileIds: string[] = [];
    for (const size of [200, 240, 280]) {
      const png = await pngImage({ width: size, height: 160 });
      const requested = await call('POST', `/projects/${projectId}/files`, {
        ownerId: aliceId,
        filePath: `layout/${size}.png`,
        contentType: 'image/png',
        contentLength: png.length,
      });
      const put = await fetch(requested.body.putFileUrl, {
        method: 'PUT',
        body: new Uint8Array(png),
        headers: { 'content-type': 'image/png' },
      });
      const verify = { etag: put.headers.get('etag') };
      assert.equal(
        (await call('POST', `/projects/${projectId}/files/${requested.body.fileId}/verify`, verify)).status,
        200,
      );
      fileIds.push(requested.body.fileId);
    }
    // Nothing listens there: the endpoint only fills the webhooks page (no file is deleted).
    const hook = { url: 'http://127.0.0.1:9/hooks/coffer', events: ['file.deleted'], description: 'layout' };
    assert.equal((await call('POST', `/projects/${projectId}/webhooks`, hook)).status, 201);
    await withPage(async (page) => {
      const routes = [
        ['projects', `${coffer.baseUrl}/console#/`],
        ['settings', consoleUrl('settings')],
        ['users', consoleUrl('users')],
        ['a user', consoleUrl(`users/${aliceId}`)],
        ['files', consoleUrl('files')],
        ['a file', consoleUrl(`files/${fileIds[0]}`)],
        ['trash', consoleUrl('trash')],
        ['webhooks', consoleUrl('webhooks')],
        ['audit log', consoleUrl('audit')],
        ['usage', `${coffer.baseUrl}/console#/usage`],
      ];
      for (const [name, url] of routes) {
        const { score, shifts } = await layoutShiftOf(page, url!, async () => {
          await page.locator('h2').first().waitFor();
          await page.getByText('Loading…').waitFor({ state: 'detached' });
        });
        assert.ok(score < 0.1, `the ${name} page shifts by ${score}: ${JSON.stringify(shifts)}`);
        // Stricter than the bar of "good" above: each view appears whole once its data is in,
        // so nothing on screen moves at all (a list arriving above a form scores only ~0.02).
        assert.deepEqual(shifts, [], `on the ${name} page`);
      }
    });
  });
});
