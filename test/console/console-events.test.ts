import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { type LocalReceiver, type ReceivedRequest, startLocalReceiver } from '../support/local-receiver.ts';

/** Debian's chromium (.ci/run installs it). */
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));
const password = 'operator passphrase 42';

/** Every control the page shows has an accessible name (label, aria-label, text or alt). */
async function assertNamedControls(page: Page): Promise<void> {
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('a, button, input, select, textarea, img, iframe, [role="img"]')]
      .filter(
        (element) =>
          !(
            element.getAttribute('aria-label') ||
            element.getAttribute('alt') ||
            (element as HTMLInputElement).labels?.length ||
            element.textContent?.trim()
          ),
      )
      .map((element) => element.outerHTML.slice(0, 120)),
  );
  assert.deepEqual(unnamed, [], 'controls without an accessible name');
}

/** Waits for a condition of the test's own (a receiver's requests), checked every 25 ms. */
async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// Issue 22 in the console, in a real browser against `coffer serve`: an operator adds a webhook
// (its secret shown once), sees an upload's delivery reach a receiver on loopback, retries it,
// and finds the share in the audit log.
describe('the console manages webhooks and shows the audit log', {
  skip: chromiumPath ? false : 'chromium is not installed (apt-get install chromium)',
}, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  let receiver: LocalReceiver;
  before(async () => {
    receiver = await startLocalReceiver((_request, response) => response.writeHead(200).end());
    coffer = await startCofferProcess({
      env: { COFFER_WEBHOOK_ALLOW_PRIVATE: 'true', COFFER_EVENT_DELIVERY_INTERVAL_MS: '20' },
    });
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
    await receiver?.close();
  });

  /** A signed-in page that records any policy violation or script error. */
  async function openSignedIn() {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${coffer.baseUrl}/console`);
    await page.getByLabel('Email').fill('ops@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    return { page, problems };
  }

  /** Clicks Refresh until a deliveries row matches `pattern` (the deliverer works in the background). */
  async function refreshUntil(page: Page, pattern: RegExp) {
    const rows = page
      .getByRole('region', { name: 'Deliveries' })
      .getByRole('row')
      .filter({ hasText: pattern });
    const deadline = Date.now() + 30_000;
    while ((await rows.count()) === 0) {
      assert.ok(Date.now() < deadline, `no delivery row matching ${pattern}`);
      const answered = page.waitForResponse((response) => response.url().includes('/deliveries'));
      await page.getByRole('button', { name: 'Refresh deliveries' }).click();
      await answered;
    }
    return rows.first();
  }

  const isUpload = (request: ReceivedRequest) => JSON.parse(request.body.toString()).type === 'file.uploaded';

  it('adds a webhook (secret once), shows and retries a delivery, disables it, and finds the share in the audit log', async () => {
    const { page, problems } = await openSignedIn();
    const { projectId } = coffer.credentials;
    try {
      await page.getByRole('link', { name: 'default' }).click();
      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'New webhook' }).waitFor();
      assert.match(page.url(), new RegExp(`#/projects/${projectId}/webhooks$`));

      // A webhook to the receiver: its signing secret shown this once, with a copy button.
      await page.getByLabel('Endpoint URL').fill(receiver.url());
      await page.getByLabel(/^Events/).fill('file.*');
      await page.getByLabel(/^Description/).fill('console journey');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const secret = await page.getByLabel('Signing secret').inputValue();
      assert.match(secret, /^whsec_/);
      await page.getByText('Coffer never shows it again').waitFor();
      await page.getByRole('button', { name: 'Copy secret' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
      await assertNamedControls(page);
      await page.reload();
      await page.getByRole('cell', { name: `${receiver.url()} console journey` }).waitFor();
      assert.equal(await page.getByLabel('Signing secret').count(), 0, 'the secret is not shown again');
      assert.doesNotMatch((await page.content()) ?? '', /whsec_/);

      // An upload and a share by a user: the upload reaches the receiver, signed with that secret.
      const alice = await coffer.client.signup('alice@events.example');
      const bob = await coffer.client.signup('bob@events.example');
      const file = await coffer.client.uploadFile(alice.token, 'events/console.txt', 'to the console');
      const shared = await coffer.client.call('POST', `/api/v1/file/${file._id}/acl/user/${bob.userId}`, {
        token: alice.token,
      });
      assert.equal(shared.status, 200, shared.text);
      const delivered = await waitFor(() => receiver.requests.find(isUpload), 'the upload delivered');
      new Webhook(secret).verify(delivered.body.toString(), delivered.headers as Record<string, string>);

      // Its delivery in the deliveries table, then retried: the same event again, same webhook-id.
      await page.getByRole('button', { name: `Deliveries of ${receiver.url()}` }).click();
      // Found by its event id: the share's delivery may land in the table meanwhile, above it.
      const eventId = String(delivered.headers['webhook-id']);
      const row = await refreshUntil(page, new RegExp(`file\\.uploaded.*${eventId}.*delivered`));
      assert.match((await row.textContent()) ?? '', /delivered1200/, 'status, one attempt, last status 200');
      assert.match((await row.textContent()) ?? '', new RegExp(eventId));
      await row.getByRole('button', { name: /^Retry delivery / }).click();
      await page.getByRole('status').filter({ hasText: 'is due again now' }).waitFor();
      await waitFor(
        () =>
          receiver.requests.filter((request) => request.headers['webhook-id'] === eventId).length === 2
            ? true
            : undefined,
        'the retried delivery',
      );
      const twice = await refreshUntil(page, /file\.uploaded.*delivered2200/);
      // Each attempt, folded under the delivery (issue 43, item 7): both answered 200.
      const deliveryId = (await twice
        .getByRole('button', { name: /^Retry delivery / })
        .getAttribute('aria-label'))!.replace('Retry delivery ', '');
      const attempts = page
        .getByRole('group')
        .filter({ has: page.getByLabel(`Attempts of delivery ${deliveryId}`) });
      await page.getByLabel(`Attempts of delivery ${deliveryId}`).click();
      const items = attempts.getByRole('listitem');
      assert.equal(await items.count(), 2);
      for (const item of await items.all()) assert.match((await item.textContent()) ?? '', / · 200 · \d+ ms/);

      // Disabled, then enabled again.
      await page.getByRole('button', { name: `Disable ${receiver.url()}` }).click();
      await page.getByRole('button', { name: `Enable ${receiver.url()}` }).waitFor();
      await page.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
      await page.getByRole('button', { name: `Enable ${receiver.url()}` }).click();
      await page.getByRole('button', { name: `Disable ${receiver.url()}` }).waitFor();

      // The audit log: the share, by alice from loopback, and its filters.
      await page
        .getByRole('navigation', { name: 'Project' })
        .getByRole('link', { name: 'Audit log' })
        .click();
      const shareRow = page.getByRole('row').filter({ hasText: 'file.shared' });
      await shareRow.waitFor();
      const shareText = (await shareRow.textContent()) ?? '';
      for (const expected of [
        alice.userId,
        '127.0.0.1',
        file._id,
        'events/console.txt',
        `with user ${bob.userId}`,
      ])
        assert.ok(shareText.includes(expected), `${expected} in ${shareText}`);
      await page.getByLabel('Type').fill('file.uploaded');
      await page.getByLabel('File id').fill(file._id);
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('row').filter({ hasText: 'file.shared' }).waitFor({ state: 'detached' });
      assert.equal(await page.getByRole('row').filter({ hasText: 'file.uploaded' }).count(), 1);
      await page.getByLabel('Type').fill('file.nothing');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /is no event type/ })
        .waitFor();
      await assertNamedControls(page);
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });

  it('pages the audit log: "Older events" adds the next 100', async () => {
    const carol = await coffer.client.signup('carol@events.example');
    const file = await coffer.client.uploadFile(carol.token, 'events/many.txt', 'many');
    for (let round = 0; round < 60; round++) {
      const target = `/api/v1/file/${file._id}/acl/role/round-${round}`;
      assert.equal((await coffer.client.call('POST', target, { token: carol.token })).status, 200);
      assert.equal((await coffer.client.call('DELETE', target, { token: carol.token })).status, 204);
    }
    const { page, problems } = await openSignedIn();
    try {
      await page.goto(`${coffer.baseUrl}/console#/projects/${coffer.credentials.projectId}/audit`);
      const rows = page.getByRole('region', { name: 'Audit log' }).locator('tbody tr');
      await page.getByRole('button', { name: 'Older events' }).waitFor();
      assert.equal(await rows.count(), 100);
      await page.getByRole('button', { name: 'Older events' }).click();
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length > 100);
      const times = await rows.evaluateAll((cells) =>
        cells.map((row) => Date.parse(row.querySelector('time')!.getAttribute('datetime')!)),
      );
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
        'newest first across pages',
      );
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });
});
