import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { thumbHashToRGBA } from 'thumbhash';
import { CofferClient, type CofferError, type FileRecord } from '../../packages/client/src/index.ts';
import { assignSettings } from '../../src/domain/identity/assign-project-settings.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** A 400×300 red JPEG, as a camera or a canvas would hand one over. */
const redJpeg = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: '#f00' } })
    .jpeg()
    .toBuffer();

/** Fetches a link as a browser's <img> would, and reads what came back. */
async function fetchImage(url: string) {
  const response = await fetch(url);
  assert.equal(response.status, 200, await response.clone().text());
  const bytes = Buffer.from(await response.arrayBuffer());
  const { width, height, format } = await sharp(bytes).metadata();
  return { contentType: response.headers.get('content-type'), width, height, format };
}

// @coffer/client's renditions (issue 21) against a real server rendering with real sharp.
describe('@coffer/client renditions', () => {
  let server: TestServer;
  let client: CofferClient;
  let image: FileRecord;
  before(async () => {
    server = await startTestServer();
    const project = await server.createProject('renditions');
    // The preset is in place before the project is first read, so no cache holds the old settings.
    const { projectId } = project.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    const settings = assignSettings(current!.settings, ['renditions.thumb=64x48,fill,png,q90']);
    await server.services.repositories.projects.updateSettings(projectId, settings);
    client = new CofferClient({
      baseUrl: server.baseUrl,
      appId: project.credentials.appId,
      appSecret: project.credentials.appSecret,
    });
    await client.signup({ email: 'pat@renditions.example', password: 'correct horse' });
    image = await client.upload('photos/red.jpg', await redJpeg(), { contentType: 'image/jpeg' });
  });
  after(() => server?.stop());

  it('links to a rendition by parameters: a 100×100 WebP', async () => {
    const answer = await client.get(image._id, { width: 100, height: 100, format: 'webp' });
    assert.equal(answer._id, image._id);
    assert.match(answer.url, /^http:\/\/127\.0\.0\.1:\d+\//);
    assert.deepEqual(await fetchImage(answer.url), {
      contentType: 'image/webp',
      width: 100,
      height: 100,
      format: 'webp',
    });
    const plain = await client.get(image._id);
    assert.notEqual(plain.url, answer.url, 'without rendition options, the link is to the file itself');
    assert.deepEqual(await fetchImage(plain.url), {
      contentType: 'image/jpeg',
      width: 400,
      height: 300,
      format: 'jpeg',
    });
  });

  it("links to a rendition by the name of one of the project's presets", async () => {
    const answer = await client.get(image._id, { rendition: 'thumb', expiresInSeconds: 60 });
    assert.deepEqual(await fetchImage(answer.url), {
      contentType: 'image/png',
      width: 64,
      height: 48,
      format: 'png',
    });
    assert.ok(answer.expiresAt - Math.floor(Date.now() / 1000) <= 60, 'expiresInSeconds still applies');
  });

  it('refuses bad parameters with a CofferError naming the rule', async () => {
    const refusals = [
      { width: 0 },
      { width: 5000, height: 10 },
      { width: 100, quality: 10 },
      { rendition: 'no-such-preset' },
      // Outside the typed unions: what a JavaScript caller could still send.
      { width: 100, format: 'bmp' as 'png' },
    ];
    for (const options of refusals)
      await assert.rejects(client.get(image._id, options), (error: CofferError) => {
        assert.deepEqual([error.name, error.status, error.code], ['CofferError', 400, 'VALIDATION_FAILED']);
        return true;
      });
    const text = await client.upload('notes/readme.txt', 'not an image', { contentType: 'text/plain' });
    await assert.rejects(client.get(text._id, { width: 100 }), { status: 415, code: 'UNSUPPORTED_MEDIA' });
  });

  it("gives an image's record its width, height and a ThumbHash placeholder once summarized", async () => {
    // serve's background job, run here by hand: the in-process server starts no timers.
    while ((await server.services.imageSummarizer.summarizeDue(20)) > 0);
    const { meta } = await client.get(image._id);
    assert.equal(meta.width, 400);
    assert.equal(meta.height, 300);
    assert.ok(meta.placeholder, 'a placeholder');
    const decoded = thumbHashToRGBA(Buffer.from(meta.placeholder, 'base64'));
    assert.ok(decoded.w > decoded.h, 'the placeholder keeps the landscape aspect');
    const [red = 0, green = 0, blue = 0] = decoded.rgba;
    assert.ok(red > 200 && green < 60 && blue < 60, `the placeholder is red (${red}, ${green}, ${blue})`);
  });
});
