import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import { FakeMediaTools } from '../support/fake-media-tools.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import {
  type MediaFixtures,
  mediaFixtures,
  readQuadrants,
  skipWithoutMediaTools,
  upright,
} from '../support/media-fixtures.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/**
 * Issue 39 end to end, on the stack's stores: phone photos and videos uploaded as apps do,
 * rendered upright through the API's links, summarized into `meta`, and refused (422, 415) as
 * the rules say.
 */
describe('HEIC and video renditions through the API', { skip: skipWithoutMediaTools }, () => {
  let server: TestServer;
  let fixtures: MediaFixtures;
  let projects = 0;
  before(async () => {
    fixtures = await mediaFixtures();
    server = await startTestServer();
  });
  after(() => server?.stop());

  const projectWith = async (settings: Partial<ProjectSettings> = {}) => {
    const client = await server.createProject(`media-${projects++}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      ...settings,
    });
    return { client, owner: await client.signup() };
  };
  const upload = (client: ApiClient, owner: Account, name: string, file: string, contentType: string) =>
    client.uploadFile(owner.token, name, readFileSync(file), { contentType });
  /** The rendition a query names: the link's answer, its bytes, and its type. */
  const render = async (client: ApiClient, owner: Account, fileId: string, query: string) => {
    const link = await client.call('GET', `/api/v1/file/${fileId}?${query}`, { token: owner.token });
    if (link.status !== 200) return { status: link.status, code: link.body.code as string };
    const response = await fetch(link.body.url as string);
    const bytes = Buffer.from(await response.arrayBuffer());
    const code = response.ok ? undefined : (JSON.parse(bytes.toString()).code as string);
    return { status: response.status, code, bytes, type: response.headers.get('content-type') };
  };
  const metaOf = async (client: ApiClient, owner: Account, fileId: string) => {
    await server.services.imageSummarizer.summarizeDue(50);
    const answer = await client.call('GET', `/api/v1/file/${fileId}`, { token: owner.token });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.meta as Record<string, unknown>;
  };

  it('a HEIC, a tiled grid and an irot-rotated one render upright at the asked size; origin gives JPEG', async () => {
    const { client, owner } = await projectWith();
    for (const [name, file, width, height] of [
      ['single.heic', fixtures.heic, 96, 64],
      ['grid.heic', fixtures.gridHeic, 128, 112],
      ['rotated.heic', fixtures.rotatedHeic, 48, 64],
    ] as const) {
      const uploaded = await upload(client, owner, name, file, 'image/heic');
      const png = await render(client, owner, uploaded._id, `width=${width / 2}&format=png`);
      assert.equal(png.status, 200, `${name}: ${png.code}`);
      assert.equal(png.type, 'image/png');
      const info = await sharp(png.bytes).metadata();
      assert.deepEqual([info.width, info.height], [width / 2, height / 2], name);
      assert.deepEqual(await readQuadrants(png.bytes!), upright, `${name} is upright`);
      const origin = await render(client, owner, uploaded._id, `width=${width / 2}`);
      assert.equal(origin.type, 'image/jpeg', `${name}: format=origin of a HEIC is JPEG`);
      const meta = await metaOf(client, owner, uploaded._id);
      assert.deepEqual([meta.width, meta.height], [width, height], `${name}: meta as displayed`);
      assert.equal(typeof meta.placeholder, 'string');
      assert.equal(meta.durationSeconds, undefined, 'a photo has no duration');
    }
  });

  it('videos get their size as displayed, duration and codecs, and a poster frame upright', async () => {
    const { client, owner } = await projectWith();
    for (const [name, file, type, videoCodec, audioCodec] of [
      ['clip.mp4', fixtures.h264Mp4, 'video/mp4', 'h264', 'aac'],
      ['phone.mov', fixtures.hevcMov, 'video/quicktime', 'hevc', null],
      ['web.webm', fixtures.vp9Webm, 'video/webm', 'vp9', 'opus'],
      ['old.webm', fixtures.vp8Webm, 'video/webm', 'vp8', null],
      ['new.webm', fixtures.av1Webm, 'video/webm', 'av1', null],
    ] as const) {
      const uploaded = await upload(client, owner, name, file, type);
      const meta = await metaOf(client, owner, uploaded._id);
      assert.deepEqual([meta.width, meta.height], [160, 96], `${name}: as displayed`);
      assert.ok(Math.abs((meta.durationSeconds as number) - 2) < 0.1, `${name}: ${meta.durationSeconds}`);
      assert.equal(meta.videoCodec, videoCodec);
      assert.equal(meta.audioCodec, audioCodec);
      assert.equal(typeof meta.placeholder, 'string', `${name} has a placeholder`);
      const poster = await render(client, owner, uploaded._id, 'width=80&format=webp');
      assert.equal(poster.status, 200, `${name}: ${poster.code}`);
      assert.equal(poster.type, 'image/webp');
      const info = await sharp(poster.bytes).metadata();
      assert.deepEqual([info.width, info.height], [80, 48], name);
      assert.deepEqual(await readQuadrants(poster.bytes!), upright, `${name}'s poster is upright`);
      const later = await render(client, owner, uploaded._id, 'width=80&format=jpeg&posterAt=1.5');
      assert.equal(later.status, 200, `${name} at 1.5 s: ${later.code}`);
      assert.equal(later.type, 'image/jpeg');
    }
    // A copy names the same bytes: it keeps their probe.
    const source = await upload(client, owner, 'copied.mp4', fixtures.h264Mp4, 'video/mp4');
    const probed = await metaOf(client, owner, source._id);
    const copied = await client.call('POST', `/api/v1/file/${source._id}/copy`, {
      token: owner.token,
      body: { filePath: 'copy-of.mp4' },
    });
    assert.equal(copied.status, 200, copied.text);
    for (const field of ['width', 'height', 'durationSeconds', 'videoCodec', 'audioCodec', 'placeholder'])
      assert.deepEqual(copied.body.meta[field], probed[field], `the copy's ${field}`);
    const short = await upload(client, owner, 'live.mp4', fixtures.shortClip, 'video/mp4');
    const first = await render(client, owner, short._id, 'width=40&format=png');
    assert.equal(first.status, 200, `a 0.5 s clip's first frame: ${first.code}`);
  });

  it('a truncated video is 422 MEDIA_UNREADABLE, remembered; a forged HEIC size is 422 IMAGE_TOO_LARGE', async () => {
    const { client, owner } = await projectWith();
    const broken = await upload(client, owner, 'broken.mp4', fixtures.truncatedMp4, 'video/mp4');
    const refused = await render(client, owner, broken._id, 'width=64&format=webp');
    assert.deepEqual([refused.status, refused.code], [422, 'MEDIA_UNREADABLE']);
    const again = await render(client, owner, broken._id, 'width=65&format=webp');
    assert.deepEqual(
      [again.status, again.code],
      [422, 'MEDIA_UNREADABLE'],
      'refused at the link, from the record',
    );
    const stored = await server.services.repositories.files.findById(broken._id);
    const recorded = await server.services.repositories.renditions.findRefusal(
      broken._id,
      stored!.blobVersion!,
    );
    assert.equal(recorded?.code, 'MEDIA_UNREADABLE', 'the verdict is kept for the version');
    assert.equal((await metaOf(client, owner, broken._id)).durationSeconds, undefined, 'no meta');

    const forged = await upload(client, owner, 'forged.heic', fixtures.forgedHeic, 'image/heic');
    const bomb = await render(client, owner, forged._id, 'width=64&format=webp');
    assert.deepEqual([bomb.status, bomb.code], [422, 'IMAGE_TOO_LARGE']);
    const next = await client.call('GET', `/api/v1/file/${forged._id}?width=63`, { token: owner.token });
    assert.deepEqual(
      [next.status, next.body.code],
      [422, 'IMAGE_TOO_LARGE'],
      'refused at the link, from the record',
    );
  });

  it('posterAt on a photo and animated on a still name the same rendition as without them', async () => {
    const { client, owner } = await projectWith();
    const photo = await upload(client, owner, 'same.heic', fixtures.heic, 'image/heic');
    const video = await upload(client, owner, 'same.mp4', fixtures.h264Mp4, 'video/mp4');
    const specOf = async (fileId: string, query: string) => {
      const answer = await client.call('GET', `/api/v1/file/${fileId}?${query}`, { token: owner.token });
      assert.equal(answer.status, 200, answer.text);
      return new URL(answer.body.url as string).pathname;
    };
    const plain = await specOf(photo._id, 'width=32&format=webp');
    assert.equal(await specOf(photo._id, 'width=32&format=webp&posterAt=2'), plain);
    assert.equal(await specOf(photo._id, 'width=32&format=webp&animated=true'), plain);
    assert.notEqual(
      await specOf(video._id, 'width=32&format=webp&posterAt=2'),
      await specOf(video._id, 'width=32&format=webp'),
      "a video's frame is its own rendition",
    );
    // The frame's time is signed: a link edited to another spelling or time is refused.
    const link = await client.call('GET', `/api/v1/file/${video._id}?width=40&format=webp&posterAt=1.5`, {
      token: owner.token,
    });
    const poster = link.body.url as string;
    assert.match(poster, /\/40x0-cover-webp-q80-t1500\?/);
    for (const tampered of [
      poster.replace('-t1500?', '-t1501?'),
      poster.replace('-t1500?', '-t01500?'),
      poster.replace('-t1500?', '-anim-t1500?'),
      poster.replace('-t1500?', '?'),
    ]) {
      const response = await fetch(tampered);
      assert.equal(response.status, 403, tampered);
      assert.equal(((await response.json()) as { code: string }).code, 'INVALID_SIGNATURE');
    }
    assert.equal((await fetch(poster)).status, 200);
  });

  it('videoRenditions=off refuses posters with 415 but still probes; over maxVideoSeconds a video gets no poster', async () => {
    const off = await projectWith({ videoRenditions: 'off' });
    const quiet = await upload(off.client, off.owner, 'clip.mp4', fixtures.h264Mp4, 'video/mp4');
    const refused = await render(off.client, off.owner, quiet._id, 'width=64&format=webp');
    assert.deepEqual([refused.status, refused.code], [415, 'UNSUPPORTED_MEDIA']);
    const probed = await metaOf(off.client, off.owner, quiet._id);
    assert.equal(probed.videoCodec, 'h264');
    assert.equal(probed.placeholder, undefined, 'no frame is decoded for a placeholder');

    const short = await projectWith({ maxVideoSeconds: 1 });
    const long = await upload(short.client, short.owner, 'long.mp4', fixtures.h264Mp4, 'video/mp4');
    const tooLong = await render(short.client, short.owner, long._id, 'width=64&format=webp');
    assert.deepEqual([tooLong.status, tooLong.code], [422, 'IMAGE_TOO_LARGE']);
    const meta = await metaOf(short.client, short.owner, long._id);
    assert.ok((meta.durationSeconds as number) > 1);
    assert.equal(meta.placeholder, undefined);
  });
});

describe('a video decoder made to hang', { skip: skipWithoutMediaTools }, () => {
  let server: TestServer;
  let fixtures: MediaFixtures;
  const fakes = new FakeMediaTools();
  before(async () => {
    fixtures = await mediaFixtures();
    // ffprobe is the real one; ffmpeg, which decodes the poster, never ends.
    const hanging = fakes.script('ffmpeg', 'exec sleep 600');
    server = await startTestServer(
      {},
      { COFFER_FFMPEG_PATH: hanging, COFFER_RENDITION_TIMEOUT_SECONDS: '3' },
    );
  });
  after(async () => {
    await server?.stop();
    fakes.remove();
  });

  it('ends that job with 422 MEDIA_UNREADABLE at the time limit while other requests are answered', async () => {
    const { token } = await server.client.signup();
    const video = await server.client.uploadFile(token, 'hang.mp4', readFileSync(fixtures.h264Mp4), {
      contentType: 'video/mp4',
    });
    const other = await server.client.uploadFile(token, 'note.txt', 'still served');
    const link = await server.client.call('GET', `/api/v1/file/${video._id}?width=64&format=webp`, { token });
    assert.equal(link.status, 200, link.text);
    const hung = fetch(link.body.url as string);
    // While the decoder hangs in its box, the server goes on answering.
    const download = await server.client.call('GET', `/api/v1/file/${other._id}`, { token });
    assert.equal(await (await fetch(download.body.url as string)).text(), 'still served');
    const answer = await hung;
    assert.equal(answer.status, 422);
    assert.equal(((await answer.json()) as { code: string }).code, 'MEDIA_UNREADABLE');
    const health = await fetch(`${server.baseUrl}/healthz`);
    assert.equal(health.status, 200, 'the process is alive');
  });
});

describe("a summarized video's posters", { skip: skipWithoutMediaTools }, () => {
  let server: TestServer;
  let fixtures: MediaFixtures;
  const fakes = new FakeMediaTools();
  const probes = fakes.file('probes.log');
  before(async () => {
    fixtures = await mediaFixtures();
    // The real ffprobe, counting its runs (the box gives tools no environment: the log's path is written in).
    const counting = fakes.script('ffprobe', `echo probe >> '${probes}'\nexec /usr/bin/ffprobe "$@"`);
    server = await startTestServer({}, { COFFER_FFPROBE_PATH: counting });
  });
  after(async () => {
    await server?.stop();
    fakes.remove();
  });
  const probeCount = () => {
    try {
      return readFileSync(probes, 'utf8').trim().split('\n').length;
    } catch {
      return 0;
    }
  };

  it('take the probe from the record: no tool probes the video again per rendition', async () => {
    const { token } = await server.client.signup();
    const video = await server.client.uploadFile(token, 'probed.mp4', readFileSync(fixtures.h264Mp4), {
      contentType: 'video/mp4',
    });
    await server.services.imageSummarizer.summarizeDue(50);
    const probedOnce = probeCount();
    assert.equal(probedOnce, 1, 'the summary probed it');
    for (const width of [30, 31, 32]) {
      const link = await server.client.call('GET', `/api/v1/file/${video._id}?width=${width}&format=webp`, {
        token,
      });
      assert.equal((await fetch(link.body.url as string)).status, 200);
    }
    assert.equal(probeCount(), probedOnce, 'three posters, no probe');
  });
});
