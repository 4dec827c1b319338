import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
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
import { type MediaFixtures, mediaFixtures, skipWithoutMediaTools } from '../support/media-fixtures.ts';

/** Whether the picture named `alt` has arrived and decoded (an error leaves naturalWidth 0). */
const decoded = (page: Page, alt: string) =>
  page.waitForFunction((alt) => {
    const image = [...document.images].find((candidate) => candidate.alt === alt);
    return image?.complete && image.naturalWidth > 0;
  }, alt);

// Issue 39 in the console, in Chromium against `coffer serve`: an operator uploads a phone's
// HEIC photo and videos; once the service has summarized them, the file list shows the photo's
// thumbnail and each video's poster frame with its duration, and the detail its codecs.
describe('the console shows HEIC photos and video posters, in headless Chromium', {
  skip: skipWithoutChromium || skipWithoutMediaTools,
}, () => {
  let coffer: CofferProcess;
  let browser: Browser;
  let fixtures: MediaFixtures;
  let token: string;
  let userId: string;
  before(async () => {
    fixtures = await mediaFixtures();
    coffer = await startCofferProcess();
    await signInToConsole(coffer);
    ({ token, userId } = await coffer.client.signup('robin@example.com'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await coffer?.stop();
  });

  /** serve summarizes verified media in the background, a moment after verify. */
  const summaryOf = async (filePath: string, field: 'placeholder' | 'durationSeconds') => {
    for (const deadline = Date.now() + 60_000; ; await delay(100)) {
      const { body } = await coffer.client.call('GET', '/api/v1/file', { token });
      const file = body.docs.find((candidate: { filePath: string }) => candidate.filePath === filePath);
      if (file?.meta[field] !== undefined) return file;
      assert.ok(Date.now() < deadline, `${filePath} was never summarized`);
    }
  };

  it("lists a HEIC's thumbnail and a video's poster with its duration; the detail tells the codecs", async () => {
    const { page, problems } = await openPage(browser);
    try {
      await signIn(page, coffer.baseUrl);
      const { projectId } = coffer.credentials;
      await page.goto(`${coffer.baseUrl}/console#/projects/${projectId}/files`);
      await page.getByLabel('Owner email').fill('robin@example.com');
      for (const [name, file, mimeType] of [
        ['photo.heic', fixtures.heic, 'image/heic'],
        ['clip.mp4', fixtures.h264Mp4, 'video/mp4'],
        ['phone.mov', fixtures.hevcMov, 'video/quicktime'],
      ] as const) {
        await page.getByLabel('File', { exact: true }).setInputFiles({
          name,
          mimeType,
          buffer: readFileSync(file),
        });
        await page.getByLabel(/^Path \(optional/).fill(`camera/${name}`);
        await page.getByRole('button', { name: 'Upload file' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `Uploaded camera/${name}` })
          .waitFor();
      }
      await summaryOf('camera/photo.heic', 'placeholder');
      await summaryOf('camera/clip.mp4', 'durationSeconds');
      await summaryOf('camera/phone.mov', 'durationSeconds');

      await page.reload();
      const row = (path: string) => page.getByRole('row').filter({ hasText: path });
      await row('camera/phone.mov').waitFor();
      for (const alt of [
        'Thumbnail of camera/photo.heic',
        'Poster of camera/clip.mp4',
        'Poster of camera/phone.mov',
      ])
        await decoded(page, alt);
      // Decoded pictures, cropped square (cover) as the console asks: not the broken-image box.
      const sidesOf = (name: string) =>
        page
          .getByRole('img', { name })
          .evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]);
      for (const name of ['Thumbnail of camera/photo.heic', 'Poster of camera/clip.mp4']) {
        const [width, height] = await sidesOf(name);
        assert.ok(width! > 0 && width === height, `${name}: ${width}×${height}`);
      }
      assert.equal(await row('camera/clip.mp4').locator('.duration').textContent(), '0:02');
      assert.equal(await row('camera/phone.mov').locator('.duration').textContent(), '0:02');
      assert.equal(await row('camera/photo.heic').locator('.duration').count(), 0, 'a photo has no duration');
      // The badge sits on the poster's box: the rows keep one height.
      const box = await page.getByRole('img', { name: 'Poster of camera/clip.mp4' }).boundingBox();
      assert.deepEqual([box?.width, box?.height], [40, 40]);
      const rowHeights = await page
        .getByRole('row')
        .evaluateAll((rows) => rows.slice(1).map((row) => row.getBoundingClientRect().height));
      assert.equal(new Set(rowHeights).size, 1, `rows keep one height: ${rowHeights.join(', ')}`);
      await assertNamedControls(page);

      // The detail: the poster over its placeholder, its size as displayed, duration and codecs.
      await page.getByRole('button', { name: 'camera/phone.mov' }).click();
      const detail = page.locator('dl.record');
      await detail.getByText('160 × 96 px').waitFor();
      assert.equal(await detail.locator('dt:has-text("Duration") + dd').textContent(), '0:02');
      assert.equal(await detail.locator('dt:has-text("Codecs") + dd').textContent(), 'hevc video, no sound');
      await page.waitForFunction(() => {
        const image = document.querySelector('figure.thumbnail-large img') as HTMLImageElement | null;
        return image?.complete && image.naturalWidth > 0;
      });
      assert.equal(await page.locator('figure.thumbnail-large .duration').textContent(), '0:02');
      await picture(page, 'media');
      await page.getByRole('button', { name: 'camera/clip.mp4' }).click();
      await detail.getByText('h264 video, aac audio').waitFor();
      await page.getByRole('button', { name: 'camera/photo.heic' }).click();
      await detail.getByText('96 × 64 px').waitFor();
      assert.equal(await detail.getByText('Codecs').count(), 0, 'a photo has no codecs');

      // The folder view lists the same pictures.
      await page.goto(`${coffer.baseUrl}/console#/projects/${projectId}/folders/${userId}/camera%2F`);
      await decoded(page, 'Poster of camera/clip.mp4');
      await decoded(page, 'Thumbnail of camera/photo.heic');
      assert.equal(await row('clip.mp4').locator('.duration').textContent(), '0:02');
      assert.deepEqual(problems, [], 'no policy violation nor script error');
    } finally {
      await page.close();
    }
  });
});
