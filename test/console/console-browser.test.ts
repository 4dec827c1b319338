import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import {
  assertNamedControls,
  launchChromium,
  openPage as openBrowserPage,
  operator,
  picture,
  signIn as signInWith,
  skipWithoutChromium,
} from '../support/console-browser.ts';

const password = operator.password;
const userPassword = 'alice passphrase 42';
const newUserPassword = 'alice new passphrase 43';

// The console in a real browser, the journey of an operator: sign in, create a project, add an
// origin, create a user, upload a file for them, share it, preview it, revoke its links, delete
// it, sign out; on a phone-sized screen and with the keyboard; and what it refuses.
describe('the console in headless Chromium', { skip: skipWithoutChromium }, () => {
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
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  const openPage = (viewport?: { width: number; height: number }) => openBrowserPage(browser, viewport);
  const signIn = (page: Page) => signInWith(page, coffer.baseUrl);

  it('takes an operator from sign-in to a deleted file, and signs out', async () => {
    const { page, problems, dialogs, dialogAnswers } = await openPage();
    try {
      await page.goto(`${coffer.baseUrl}/console`);
      await page.getByLabel('Email').fill('ops@example.com');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /wrong/i);
      await picture(page, 'sign-in');
      // A picture of the page to upload later: a real PNG the preview must show.
      const png = await page.screenshot({ clip: { x: 400, y: 16, width: 480, height: 300 } });
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();

      // A project, its secret shown once.
      await page.getByLabel(/^Project name/).fill('photos-app');
      await page.getByRole('button', { name: 'Create project' }).click();
      const secret = await page.getByLabel('App secret').inputValue();
      assert.ok(secret.length >= 32, 'the app secret is shown');
      const appId = (await page.locator('text=app id').locator('code').textContent()) ?? '';
      await page.getByRole('link', { name: 'photos-app' }).first().waitFor();
      await picture(page, 'projects');
      await page.reload();
      await page.getByRole('link', { name: 'photos-app' }).waitFor();
      assert.equal(await page.getByText(secret).count(), 0, 'the secret is not shown again');

      // An origin.
      await page.getByRole('link', { name: 'photos-app' }).click();
      await page.getByRole('heading', { name: 'Project photos-app' }).waitFor();
      const projectId = (await page.locator('p.hint code').first().textContent()) ?? '';
      await page.getByLabel('New origin').fill('https://photos.example.com');
      await page.getByRole('button', { name: 'Add origin' }).click();
      await page.getByRole('button', { name: 'Remove origin https://photos.example.com' }).waitFor();
      await picture(page, 'project');

      // A user.
      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Email', { exact: true }).fill('alice@example.com');
      await page.getByLabel('Password', { exact: true }).fill(userPassword);
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('cell', { name: 'alice@example.com', exact: true }).waitFor();
      // Her own page, where she is changed.
      await page.getByRole('link', { name: 'alice@example.com' }).click();
      await page.getByRole('heading', { name: 'User alice@example.com' }).waitFor();
      await page.getByRole('textbox', { name: 'Role of alice@example.com' }).fill('editor');
      await page.getByRole('button', { name: 'Save role of alice@example.com' }).click();
      await page.getByRole('status').filter({ hasText: 'Updated alice@example.com' }).waitFor();
      await page.getByLabel('New password for alice@example.com').fill(newUserPassword);
      await page.getByRole('button', { name: 'Set password', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Password of alice@example.com reset' }).waitFor();
      await picture(page, 'users');

      // A file uploaded for her, shown in a preview.
      await page.getByRole('link', { name: 'Files' }).click();
      await page.getByLabel('Owner email').fill('alice@example.com');
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'beach.png', mimeType: 'image/png', buffer: png });
      await page.getByLabel(/^Path \(optional/).fill('holiday/beach.png');
      await page.getByRole('button', { name: 'Upload file' }).click();
      await page.getByRole('status').filter({ hasText: 'Uploaded holiday/beach.png' }).waitFor();
      await page.getByRole('button', { name: 'holiday/beach.png' }).click();
      const preview = page.getByRole('img', { name: 'Preview of holiday/beach.png' });
      await preview.waitFor();
      await page.waitForFunction(() => {
        const image = document.querySelector('img.preview') as HTMLImageElement | null;
        return image?.complete && image.naturalWidth > 0;
      });
      assert.equal(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth), 480);
      const fileId = (await page.locator('dl.record dd code').first().textContent()) ?? '';
      // The open file has an address of its own: going there again opens it.
      const fileUrl = page.url();
      assert.ok(fileUrl.endsWith(`/files/${fileId}`), fileUrl);
      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByRole('heading', { name: 'Files' }).waitFor({ state: 'detached' });
      await page.goto(fileUrl);
      await preview.waitFor();

      // Shared with a role.
      await page.getByLabel('Share with').selectOption('role');
      await page.getByLabel('Email, user id or role').fill('friends');
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      await page.getByRole('button', { name: 'Unshare from role friends' }).waitFor();
      // Shared with a person by email (any case): the access list holds their id.
      const bob = await new ApiClient(coffer.baseUrl, { projectId, appId, appSecret: secret }).signup(
        'bob@example.com',
        'bob password 42',
      );
      await page.getByLabel('Share with').selectOption('email');
      await page.getByLabel('Email, user id or role').fill('Bob@Example.com');
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      // People show as their emails, their ids on hover: the owner, the access list.
      const bobEntry = page.getByRole('button', { name: 'Unshare from user bob@example.com' });
      await bobEntry.waitFor();
      const bobShown = page.getByRole('list', { name: 'Access list' }).getByText('bob@example.com');
      assert.equal(await bobShown.getAttribute('title'), `user id ${bob.userId}`);
      await page.locator('dl.record').getByText('alice@example.com').waitFor();
      // Its folder is a link away: the Folders tab opens Alice's holiday/ with the file in it.
      await page.locator('dl.record').getByRole('link', { name: 'holiday/' }).click();
      await page.getByRole('navigation', { name: 'Folder path' }).getByText('holiday').waitFor();
      await page.getByRole('button', { name: 'holiday/beach.png' }).waitFor();
      await page.goBack();
      await bobEntry.waitFor();
      // The file filter takes an owner's email too.
      const owner = page.getByLabel('Owner (email or user id)');
      await owner.fill('nobody@example.com');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No file here.').waitFor();
      await owner.fill('Alice@Example.com');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('button', { name: 'holiday/beach.png' }).waitFor();
      await picture(page, 'files');

      // Its links revoked: one Alice had stops working.
      const alice = new ApiClient(coffer.baseUrl, { projectId, appId, appSecret: secret });
      const login = await alice.call('POST', '/api/v1/auth/login', {
        body: { email: 'alice@example.com', password: newUserPassword },
      });
      assert.equal(login.status, 200, login.text);
      const link = (await alice.call('GET', `/api/v1/file/${fileId}`, { token: login.body.token })).body.url;
      assert.equal((await fetch(link)).status, 200);
      // Revoking asks first: declined, nothing changes.
      dialogAnswers.push(false);
      const asked = dialogs.length;
      await page.getByRole('button', { name: 'Revoke links' }).click();
      while (dialogs.length === asked) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.match(dialogs.at(-1) ?? '', /Revoke every link/);
      assert.equal((await fetch(link)).status, 200, 'a declined revocation revokes nothing');
      await page.getByRole('button', { name: 'Revoke links' }).click();
      await page.getByRole('status').filter({ hasText: 'stopped working' }).waitFor();
      // Download links go through the gateway on S3 too (presigned ones are a project's choice).
      assert.equal((await fetch(link)).status, 403);

      // Usage: the project's bytes and Alice's, beside the traffic.
      await page.getByRole('link', { name: 'Usage' }).click();
      await page.getByRole('heading', { name: 'Traffic on this node' }).waitFor();
      await page.getByRole('cell', { name: 'photos-app', exact: true }).waitFor();
      await page.getByRole('combobox', { name: /^Users of project/ }).selectOption({ label: 'photos-app' });
      await page.getByRole('cell', { name: 'alice@example.com', exact: true }).waitFor();
      await assertNamedControls(page);
      await picture(page, 'usage');

      // Deleted.
      await page.goBack();
      await page.getByRole('button', { name: 'holiday/beach.png' }).click();
      await page.getByRole('button', { name: 'Delete file' }).click();
      await page.getByText('No file here.').waitFor();
      const gone = await alice.call('GET', `/api/v1/file/${fileId}`, { token: login.body.token });
      assert.equal(gone.status, 404);

      // Sign out: a reload stays signed out.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });

  it('fits a phone-sized screen and works from the keyboard', async () => {
    const { page, problems } = await openPage({ width: 390, height: 844 });
    try {
      await page.goto(`${coffer.baseUrl}/console`);
      // The keyboard alone: the form's fields in order, Enter submits.
      await page.getByLabel('Email').focus();
      await page.keyboard.type('ops@example.com');
      await page.keyboard.press('Tab');
      await page.keyboard.type(password);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
      for (const route of [
        '',
        `projects/${coffer.credentials.projectId}/settings`,
        `projects/${coffer.credentials.projectId}/users`,
        `projects/${coffer.credentials.projectId}/files`,
        'usage',
      ]) {
        await page.goto(`${coffer.baseUrl}/console#/${route}`);
        await page.locator('h1').first().waitFor();
        await page.getByText('Loading…').waitFor({ state: 'detached' });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(overflow <= 0, `#/${route} is wider than the screen by ${overflow}px`);
        await assertNamedControls(page);
      }
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/files`);
      await page.getByRole('heading', { name: 'Upload' }).waitFor();
      await picture(page, 'phone');
      // Tab reaches the navigation and Enter follows it.
      await page.getByRole('link', { name: 'Usage' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Usage' }).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('refuses other sites, app credentials and user tokens', async () => {
    // Another site (localhost is not the site of 127.0.0.1) posts a form to the console API.
    const attacker = http.createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<form method="post" enctype="text/plain" action="${coffer.baseUrl}/console/api/projects">
        <input name='{"name":"planted","x":"' value='"}'></form>
        <script>document.forms[0].submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const { page } = await openPage();
    try {
      await signIn(page);
      const port = (attacker.address() as AddressInfo).port;
      await page.goto(`http://localhost:${port}/`);
      await page.waitForURL(`${coffer.baseUrl}/console/api/projects`);
      const refused = JSON.parse((await page.locator('body').textContent()) ?? '{}');
      assert.ok(['ACCESS_DENIED', 'AUTH_REQUIRED'].includes(refused.code), JSON.stringify(refused));
      await page.goto(`${coffer.baseUrl}/console`);
      await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'planted' }).count(), 0, 'no project was planted');

      const { token } = await coffer.client.signup();
      const refusedHeaders: Record<string, string>[] = [
        { 'sb-app-id': coffer.credentials.appId, 'sb-app-secret': coffer.credentials.appSecret },
        { authorization: `Bearer ${token}` },
      ];
      for (const headers of refusedHeaders) {
        const response = await fetch(`${coffer.baseUrl}/console/api/projects`, { headers });
        assert.equal(response.status, 401);
        assert.equal((await response.json()).code, 'AUTH_REQUIRED');
      }
    } finally {
      await page.close();
      await new Promise((resolve) => attacker.close(resolve));
    }
  });
});
