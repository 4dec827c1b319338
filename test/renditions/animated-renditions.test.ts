import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import {
  type AnimationFormat,
  animatedImage,
  frameColours,
  frameDelaysMs,
  manyFrames,
  withBrokenLaterFrames,
} from '../support/animated-images.ts';
import type { ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/**
 * Issue 39 item 3: GIF and animated WebP render to an animated WebP keeping their timing when
 * asked `format=webp&animated=true`, else to their first frame; the rendition spec's new
 * parameters (`animated`, `posterAt`) beside free parameters and presets, and in signed links.
 */
describe('animated renditions', () => {
  let server: TestServer;
  let token: string;
  let count = 0;
  before(async () => {
    // A render budget of 40 MiB: the first frame of 60 frames of 400×400 fits it, all 60 do not.
    server = await startTestServer({}, { COFFER_RENDITION_MAX_MEMORY_BYTES: String(40 * 2 ** 20) });
    ({ token } = await server.client.signup());
  });
  after(() => server?.stop());

  const upload = async (content: Buffer, contentType: string) => {
    const file = await server.client.uploadFile(token, `animations/${count++}`, content, { contentType });
    return file._id as string;
  };
  const ask = (fileId: string, query: Record<string, string>): Promise<ApiResponse> =>
    server.client.call('GET', `/api/v1/file/${fileId}?${new URLSearchParams(query)}`, { token });
  const linkOf = async (fileId: string, query: Record<string, string>) => {
    const answer = await ask(fileId, query);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.url as string;
  };
  const fetchBytes = async (url: string) => {
    const response = await fetch(url);
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const expectError = (answer: { status: number; body: { code?: string } }, status: number, code: string) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.code, code);
  };
  const renderedCount = async () => {
    const text = await server.services.metrics.registry.getSingleMetricAsString(
      'coffer_renditions_rendered_total',
    );
    return Number(/coffer_renditions_rendered_total (\d+)/.exec(text)?.[1] ?? 0);
  };
  /** Each frame's centre colour, read back with sharp (`page`). */
  const frameCentres = async (bytes: Buffer, pages: number) => {
    const centres = [];
    for (let page = 0; page < pages; page++) {
      const { data } = await sharp(bytes, { page })
        .extract({ left: 30, top: 30, width: 1, height: 1 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      centres.push([...data]);
    }
    return centres;
  };

  for (const format of ['gif', 'webp'] as const satisfies AnimationFormat[]) {
    it(`an animated ${format} with format=webp&animated=true → an animated WebP of every frame, timed as the source`, async () => {
      const fileId = await upload(await animatedImage({ format, width: 120, height: 80 }), `image/${format}`);
      const url = await linkOf(fileId, { width: '60', height: '60', format: 'webp', animated: 'true' });
      assert.match(url, /\/60x60-cover-webp-q80-anim\?/);
      const { response, bytes } = await fetchBytes(url);
      assert.equal(response.status, 200, bytes.toString());
      assert.equal(response.headers.get('content-type'), 'image/webp');
      const metadata = await sharp(bytes).metadata();
      assert.deepEqual([metadata.format, metadata.width, metadata.height], ['webp', 60, 60]);
      assert.equal(metadata.pages, 3);
      assert.deepEqual(metadata.delay, [...frameDelaysMs]);
      assert.equal(metadata.loop, 0, 'loops forever, as the source');
      const centres = await frameCentres(bytes, 3);
      for (const [index, colour] of centres.entries())
        for (const [channel, value] of colour.entries())
          assert.ok(Math.abs(value - frameColours[index]![channel]!) <= 24, `frame ${index}: ${colour}`);
      // The rendition's record is one frame high.
      const [row] = await server.services.database.db
        .selectFrom('renditions')
        .select(['width', 'height'])
        .where('file_id', '=', fileId)
        .execute();
      assert.deepEqual([row?.width, row?.height], [60, 60]);

      // Without animated=true: the first frame, as before.
      const still = await fetchBytes(await linkOf(fileId, { width: '60', height: '60', format: 'webp' }));
      assert.equal(still.response.status, 200);
      assert.equal((await sharp(still.bytes).metadata()).pages ?? 1, 1);
    });
  }

  it('answers 400 naming the rule: animated without format=webp, a bad flag, a bad posterAt', async () => {
    const fileId = await upload(await animatedImage({ format: 'gif' }), 'image/gif');
    const cases: [Record<string, string>, RegExp][] = [
      [{ width: '60', format: 'jpeg', animated: 'true' }, /animated=true needs format=webp/],
      [{ width: '60', animated: 'true' }, /animated=true needs format=webp/],
      [{ width: '60', format: 'webp', animated: 'yes' }, /animated must be true or false/],
      [
        { width: '60', posterAt: '1.2345' },
        /posterAt must be seconds from 0 to 86400, with at most 3 decimals/,
      ],
      [{ width: '60', posterAt: '90000' }, /posterAt must be seconds/],
      [{ animated: 'true', format: 'webp' }, /width or height/],
    ];
    for (const [query, message] of cases) {
      const answer = await ask(fileId, query);
      expectError(answer, 400, 'VALIDATION_FAILED');
      assert.match(answer.body.message, message, JSON.stringify(query));
    }
  });

  it('keeps the links and renditions of specs from before: animated=false spells them as they were', async () => {
    const fileId = await upload(await animatedImage({ format: 'gif' }), 'image/gif');
    const url = await linkOf(fileId, { width: '40', height: '40', format: 'webp' });
    assert.match(url, /\/40x40-cover-webp-q80\?/);
    assert.equal((await fetchBytes(url)).response.status, 200);
    const rendered = await renderedCount();
    const same = await linkOf(fileId, { width: '40', height: '40', format: 'webp', animated: 'false' });
    assert.equal(new URL(same).pathname, new URL(url).pathname);
    assert.equal((await fetchBytes(same)).response.status, 200);
    assert.equal(await renderedCount(), rendered, 'served from the rendition stored before');
  });

  it('signs the suffixes: a link edited into another spelling or another spec is refused', async () => {
    const fileId = await upload(await animatedImage({ format: 'gif' }), 'image/gif');
    const animated = await linkOf(fileId, { width: '40', format: 'webp', animated: 'true' });
    // A video's posterAt spellings: test/media/media-renditions.test.ts.
    for (const tampered of [
      animated.replace('-anim?', '?'),
      animated.replace('-anim?', '-anim-t0?'),
      animated.replace('q80-anim', 'q81-anim'),
    ]) {
      const response = await fetch(tampered);
      assert.equal(response.status, 403, tampered);
      assert.equal(((await response.json()) as { code: string }).code, 'INVALID_SIGNATURE');
    }
    assert.equal((await fetchBytes(animated)).response.status, 200);
  });

  it('refuses an animation over the render budget from its header, decoding no frame; its first frame still renders', async () => {
    // 60 frames of 400×400 take ~55 MiB counted, over the 40 MiB budget; frames 2–60 are garbage,
    // so a decode would answer IMAGE_UNREADABLE, not IMAGE_TOO_LARGE.
    const fileId = await upload(
      withBrokenLaterFrames(await manyFrames({ count: 60, side: 400 })),
      'image/gif',
    );
    const rendered = await renderedCount();
    const response = await fetch(await linkOf(fileId, { width: '100', format: 'webp', animated: 'true' }));
    const body = (await response.json()) as { code: string; message: string };
    expectError({ status: response.status, body }, 422, 'IMAGE_TOO_LARGE');
    assert.match(body.message, /it has 60 frames: ask for a smaller size, or without animated=true/);
    assert.equal(await renderedCount(), rendered);
    // Refused for that spec only, not for the file's version: the first frame renders.
    const still = await fetchBytes(await linkOf(fileId, { width: '100', format: 'webp' }));
    assert.equal(still.response.status, 200, still.bytes.toString());
    assert.equal((await sharp(still.bytes).metadata()).width, 100);
  });

  it('takes animated and posterAt beside a preset name, and in a preset', async () => {
    const { projectId } = server.credentials;
    const projects = server.services.repositories.projects;
    const project = (await projects.findById(projectId))!;
    const { assignSettings } = await import('../../src/domain/identity/assign-project-settings.ts');
    await projects.updateSettings(
      projectId,
      assignSettings(project.settings, [
        'renditions=presets',
        'renditions.thumb=48x48,cover,webp',
        'renditions.loop=48x48,webp,anim',
        'renditions.still=48x48,jpeg',
      ]),
    );
    try {
      const fileId = await upload(await animatedImage({ format: 'webp' }), 'image/webp');
      // Settings are cached until the access epoch moves: wait for the change to be seen.
      await waitFor(async () => (await ask(fileId, { rendition: 'loop' })).status === 200);
      const pagesOf = async (query: Record<string, string>) => {
        const url = await linkOf(fileId, query);
        const { response, bytes } = await fetchBytes(url);
        assert.equal(response.status, 200, bytes.toString());
        return { path: new URL(url).pathname, pages: (await sharp(bytes).metadata()).pages ?? 1 };
      };
      assert.deepEqual(await pagesOf({ rendition: 'loop' }), {
        path: `/blob/v1/renditions/${fileId}/48x48-cover-webp-q80-anim`,
        pages: 3,
      });
      assert.equal((await pagesOf({ rendition: 'thumb', animated: 'true' })).pages, 3);
      assert.equal((await pagesOf({ rendition: 'loop', animated: 'false' })).pages, 1);
      // posterAt picks a video's frame: beside an image it names the same rendition.
      assert.match((await pagesOf({ rendition: 'thumb', posterAt: '3' })).path, /48x48-cover-webp-q80$/);
      const jpeg = await ask(fileId, { rendition: 'still', animated: 'true' });
      expectError(jpeg, 400, 'VALIDATION_FAILED');
      assert.match(jpeg.body.message, /animated=true needs format=webp .*preset still writes jpeg/);
      expectError(await ask(fileId, { rendition: 'thumb', width: '10' }), 400, 'VALIDATION_FAILED');
      // Modifiers alone are no free rendition: this project serves presets only.
      expectError(
        await ask(fileId, { width: '48', format: 'webp', animated: 'true' }),
        403,
        'RENDITIONS_DISABLED',
      );
    } finally {
      await projects.updateSettings(projectId, project.settings);
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
