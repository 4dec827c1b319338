import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import {
  CofferClient,
  durationOf,
  type FileRecord,
  formatDuration,
  hasStill,
  isVideo,
} from '../../packages/client/src/index.ts';
import { assignSettings } from '../../src/domain/identity/assign-project-settings.ts';
import { renderedTypes } from '../../src/domain/renditions/renderable-source.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { type MediaFixtures, mediaFixtures, skipWithoutMediaTools } from '../support/media-fixtures.ts';

/** A link's bytes as a browser's <img> gets them. */
async function fetchStill(url: string) {
  const response = await fetch(url);
  assert.equal(response.status, 200, await response.clone().text());
  const bytes = Buffer.from(await response.arrayBuffer());
  const { width, height, format } = await sharp(bytes).metadata();
  return { type: response.headers.get('content-type'), width, height, format };
}

/** The rendition a link names (its path ends /<fileId>/<canonical spec>), without expiry and signature. */
const specOf = (url: string) => new URL(url).pathname.split('/').at(-1);

// @coffer/client and issue 39: what an app needs for a gallery of phone photos and videos.
describe('@coffer/client with HEIC photos and videos', { skip: skipWithoutMediaTools }, () => {
  let server: TestServer;
  let client: CofferClient;
  let fixtures: MediaFixtures;
  const files: Record<string, FileRecord> = {};
  before(async () => {
    fixtures = await mediaFixtures();
    server = await startTestServer();
    const project = await server.createProject('gallery');
    const { projectId } = project.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    const settings = assignSettings(current!.settings, ['renditions.thumb=64x48,fill,png,q90']);
    await server.services.repositories.projects.updateSettings(projectId, settings);
    client = new CofferClient({ baseUrl: server.baseUrl, ...project.credentials });
    await client.signup({ email: 'kim@gallery.example', password: 'correct horse' });
    for (const [name, file, contentType] of [
      ['photo.heic', fixtures.heic, 'image/heic'],
      ['clip.mp4', fixtures.h264Mp4, 'video/mp4'],
      ['phone.mov', fixtures.hevcMov, 'video/quicktime'],
      ['loop.gif', fixtures.animatedGif, 'image/gif'],
    ] as const)
      files[name] = await client.upload(`camera/${name}`, readFileSync(file), { contentType });
    files['notes.txt'] = await client.upload('camera/notes.txt', 'no picture', { contentType: 'text/plain' });
    // serve's background job, run here by hand: the in-process server starts no timers.
    while ((await server.services.imageSummarizer.summarizeDue(20)) > 0);
  });
  after(() => server?.stop());

  it('tells from a record which files are videos, their duration and which have a still', async () => {
    const listed = new Map<string, FileRecord>();
    for await (const file of client.list()) listed.set(file.filePath, file);
    const clip = listed.get('camera/clip.mp4')!;
    const phone = listed.get('camera/phone.mov')!;
    const photo = listed.get('camera/photo.heic')!;
    const notes = listed.get('camera/notes.txt')!;
    assert.deepEqual(
      [clip, phone, photo, notes].map((file) => [isVideo(file), hasStill(file)]),
      [
        [true, true],
        [true, true],
        [false, true],
        [false, false],
      ],
    );
    assert.ok(Math.abs(durationOf(clip)! - 2) < 0.1, `the clip lasts ${durationOf(clip)} s`);
    assert.equal(formatDuration(durationOf(clip)!), '0:02');
    assert.deepEqual([clip.meta.videoCodec, clip.meta.audioCodec], ['h264', 'aac']);
    assert.deepEqual([phone.meta.videoCodec, phone.meta.audioCodec], ['hevc', null], 'no sound: null');
    assert.deepEqual([phone.meta.width, phone.meta.height], [160, 96], 'as displayed (turned)');
    assert.equal(durationOf(photo), undefined, 'a photo has no duration');
    assert.equal(hasStill({ ...clip, verified: false }), false, 'nothing to render before verify');
    assert.deepEqual([0, 7.9, 59.999, 125, 3725, -1, Number.NaN].map(formatDuration), [
      '0:00',
      '0:07',
      '0:59',
      '2:05',
      '1:02:05',
      '0:00',
      '0:00',
    ]);
  });

  it("links a gallery's stills with one options shape: a HEIC's photo, a video's poster at posterAt", async () => {
    const shape = { width: 80, format: 'webp', posterAt: 1.5 } as const;
    for (const name of ['photo.heic', 'clip.mp4', 'phone.mov']) {
      const answer = await client.get(files[name]!._id, shape);
      const still = await fetchStill(answer.url);
      assert.equal(still.type, 'image/webp', name);
      assert.equal(still.width, 80, name);
    }
    const clip = files['clip.mp4']!._id;
    const [at, plain] = await Promise.all([
      client.get(clip, shape),
      client.get(clip, { width: 80, format: 'webp' }),
    ]);
    assert.notEqual(specOf(at.url), specOf(plain.url), "a video's posterAt names another frame");
    const photo = files['photo.heic']!._id;
    const [photoAt, photoPlain] = await Promise.all([
      client.get(photo, shape),
      client.get(photo, { width: 80, format: 'webp' }),
    ]);
    assert.equal(specOf(photoAt.url), specOf(photoPlain.url), 'a photo ignores posterAt: one rendition');
  });

  it('takes posterAt beside a preset name, and asks an animated WebP with animated: true', async () => {
    const preset = await client.get(files['clip.mp4']!._id, { rendition: 'thumb', posterAt: 0.5 });
    assert.deepEqual(await fetchStill(preset.url), {
      type: 'image/png',
      width: 64,
      height: 48,
      format: 'png',
    });
    assert.match(specOf(preset.url)!, /-t500$/, 'the frame at 0.5 s');
    // The animated render itself is the spec's and the renderer's (test/api); here: the client asks it.
    const gif = files['loop.gif']!._id;
    const animated = await client.get(gif, { width: 32, format: 'webp', animated: true });
    assert.equal(specOf(animated.url), '32x0-cover-webp-q80-anim');
    assert.equal((await fetchStill(animated.url)).format, 'webp');
    const first = await client.get(gif, { width: 32, format: 'webp', animated: false });
    assert.equal(specOf(first.url), '32x0-cover-webp-q80', 'animated: false is the default spelling');
    await assert.rejects(client.get(gif, { width: 32, animated: true }), {
      status: 400,
      code: 'VALIDATION_FAILED',
    });
  });
});

describe("the client's list of types with a still", () => {
  it("is the server's: every type Coffer renders, and none it does not", () => {
    const verified = (type: string) => ({ verified: true, meta: { ContentType: type } });
    for (const type of renderedTypes) assert.ok(hasStill(verified(type)), type);
    for (const type of ['image/svg+xml', 'application/pdf', 'image/tiff', 'video/x-msvideo', 'text/plain'])
      assert.ok(!hasStill(verified(type)), type);
  });
});
