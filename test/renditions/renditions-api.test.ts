import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createBlobCollector } from '../../src/wiring/background-jobs.ts';
import type { ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import {
  jpegWithExif,
  largeJpeg,
  pdfDocument,
  pngBomb,
  redCorner,
  svgImage,
} from '../support/test-images.ts';

/** Issue 21: renditions through the API and the gateway, on both stacks. */
describe('image renditions', () => {
  let server: TestServer;
  let token: string;
  let count = 0;
  before(async () => {
    server = await startTestServer();
    ({ token } = await server.client.signup());
  });
  after(() => server?.stop());

  const upload = async (content: Buffer, contentType: string, as = token) => {
    const file = await server.client.uploadFile(as, `images/${count++}`, content, { contentType });
    return file._id;
  };
  const ask = (fileId: string, query: Record<string, string>, as = token): Promise<ApiResponse> =>
    server.client.call('GET', `/api/v1/file/${fileId}?${new URLSearchParams(query)}`, { token: as });
  const linkOf = async (fileId: string, query: Record<string, string>) => {
    const answer = await ask(fileId, query);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.url as string;
  };
  const fetchImage = async (url: string) => {
    const response = await fetch(url);
    const bytes = Buffer.from(await response.arrayBuffer());
    return { response, bytes };
  };
  const expectError = (answer: Pick<ApiResponse, 'status' | 'body'>, status: number, code: string) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.code, code);
  };
  /** The blob collection of serve and `coffer gc`, as it would run once the grace period of what exists now has passed. */
  const collectPastGrace = (options: { apply: boolean }) => {
    const { config, repositories, blobs } = server.services;
    const later = new Date(Date.now() + (config.gcGraceSeconds + 60) * 1000);
    return createBlobCollector(config, { repositories, blobs, clock: { now: () => later } }).collect(options);
  };
  const renderedCount = async () => {
    const text = await server.services.metrics.registry.getSingleMetricAsString(
      'coffer_renditions_rendered_total',
    );
    return Number(/coffer_renditions_rendered_total (\d+)/.exec(text)?.[1] ?? 0);
  };

  it('a JPEG with EXIF orientation and GPS → a 200×200 WebP, upright, without EXIF', async () => {
    const fileId = await upload(await jpegWithExif(), 'image/jpeg');
    const url = await linkOf(fileId, { width: '200', height: '200', format: 'webp' });
    assert.match(url, /\/blob\/v1\/renditions\/[^/]+\/200x200-cover-webp-q80\?exp=\d+&gen=0&kid=/);
    const { response, bytes } = await fetchImage(url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/webp');
    assert.match(response.headers.get('etag') ?? '', /^"/);
    assert.match(response.headers.get('cache-control') ?? '', /immutable/);
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.format, 'webp');
    assert.equal(meta.width, 200);
    assert.equal(meta.height, 200);
    assert.equal(meta.exif, undefined, 'no EXIF (no GPS position) in a rendition');
    assert.equal(meta.orientation, undefined);
    // Upright: displayed as its EXIF orientation says, the source's red quadrant is top left.
    assert.equal(await redCorner(bytes), 'top-left');
  });

  it('renders avif, png and jpeg, and never enlarges', async () => {
    const fileId = await upload(await jpegWithExif(), 'image/jpeg');
    for (const [format, type] of [
      ['avif', 'image/avif'],
      ['png', 'image/png'],
      ['jpeg', 'image/jpeg'],
    ] as const) {
      const { response, bytes } = await fetchImage(await linkOf(fileId, { width: '64', format }));
      assert.equal(response.status, 200, format);
      assert.equal(response.headers.get('content-type'), type);
      const meta = await sharp(bytes).metadata();
      assert.equal(meta.width, 64, format);
    }
    const small = await upload(
      await sharp({ create: { width: 50, height: 40, channels: 3, background: '#00f' } })
        .png()
        .toBuffer(),
      'image/png',
    );
    const { bytes } = await fetchImage(await linkOf(small, { width: '200', height: '200' }));
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.format, 'png', 'origin keeps the source format');
    assert.ok(meta.width! <= 50 && meta.height! <= 40, `${meta.width}x${meta.height}`);
  });

  it('answers 400 naming the allowed values for a bad parameter', async () => {
    const fileId = await upload(await jpegWithExif(), 'image/jpeg');
    const cases: [Record<string, string>, RegExp][] = [
      [{ width: '0' }, /width must be an integer from 1 to 4096/],
      [{ width: '5000' }, /width/],
      [{ width: '10', format: 'gif' }, /format must be one of origin, webp, avif, jpeg, png/],
      [{ width: '10', resize: 'stretch' }, /resize must be one of cover, contain, fill, inside/],
      [{ width: '10', quality: '5' }, /quality must be an integer from 20 to 100/],
      [{ format: 'webp' }, /width or height/],
      [{ rendition: 'nope' }, /No rendition preset "nope"/],
    ];
    for (const [query, message] of cases) {
      const answer = await ask(fileId, query);
      expectError(answer, 400, 'VALIDATION_FAILED');
      assert.match(answer.body.message, message);
    }
  });

  it('refuses an SVG and a PDF with 415, and a pixel bomb with 422 without decoding it', async () => {
    expectError(
      await ask(await upload(svgImage(), 'image/svg+xml'), { width: '10' }),
      415,
      'UNSUPPORTED_MEDIA',
    );
    expectError(
      await ask(await upload(pdfDocument(), 'application/pdf'), { width: '10' }),
      415,
      'UNSUPPORTED_MEDIA',
    );
    const bomb = await upload(await pngBomb({ width: 20_000, height: 20_000 }), 'image/png');
    const rssBefore = process.memoryUsage().rss;
    // Before its summary the record knows no dimensions: the gateway refuses from the header.
    const url = await linkOf(bomb, { width: '100' });
    const refused = await fetch(url);
    assert.equal(refused.status, 422);
    assert.equal(((await refused.json()) as { code: string }).code, 'IMAGE_TOO_LARGE');
    // 20,000² RGB would be 1.2 GB decoded; the server shares this process.
    const grownMiB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    assert.ok(grownMiB < 200, `RSS grew ${grownMiB.toFixed(0)} MiB refusing a bomb`);
    // Once summarized, the record's dimensions refuse it before any link is issued.
    await server.services.imageSummarizer.summarizeDue(50);
    const record = await ask(bomb, {});
    assert.equal(record.body.meta.width, 20_000);
    expectError(await ask(bomb, { width: '100' }), 422, 'IMAGE_TOO_LARGE');
  });

  it('gives verified images width, height and a placeholder in meta', async () => {
    const fileId = await upload(await jpegWithExif(), 'image/jpeg');
    await server.services.imageSummarizer.summarizeDue(50);
    const { body } = await ask(fileId, {});
    const stored = await sharp(await jpegWithExif()).metadata();
    // Orientation 6 turns the stored image a quarter: meta says how it is displayed.
    assert.equal(body.meta.width, stored.height);
    assert.equal(body.meta.height, stored.width);
    assert.match(body.meta.placeholder, /^[A-Za-z0-9+/]+=*$/);
  });

  it('has the download access rule: a stranger, a tampered link, a revoked link, a deleted file', async () => {
    const fileId = await upload(await jpegWithExif(), 'image/jpeg');
    const stranger = await server.client.signup();
    expectError(await ask(fileId, { width: '100' }, stranger.token), 403, 'ACCESS_DENIED');
    const url = await linkOf(fileId, { width: '100', height: '100' });
    const tampered = url.replace('100x100-cover', '4000x4000-cover');
    assert.equal((await fetch(tampered)).status, 403);
    const signature = /sig=(.)/.exec(url)![1];
    assert.equal((await fetch(url.replace(/sig=./, `sig=${signature === 'A' ? 'B' : 'A'}`))).status, 403);
    assert.equal((await fetch(url)).status, 200);
    // Range and conditional GET, like a download.
    const ranged = await fetch(url, { headers: { range: 'bytes=0-9' } });
    assert.equal(ranged.status, 206);
    assert.equal((await ranged.arrayBuffer()).byteLength, 10);
    const etag = ranged.headers.get('etag')!;
    assert.equal((await fetch(url, { headers: { 'if-none-match': etag } })).status, 304);

    const revoked = await server.client.call('POST', `/api/v1/file/${fileId}/links/revoke`, { token });
    assert.ok(revoked.status < 300, revoked.text);
    assert.equal((await fetch(url)).status, 403);

    const fresh = await linkOf(fileId, { width: '100', height: '100' });
    assert.equal((await fetch(fresh)).status, 200);
    const rows = () =>
      server.services.database.db
        .selectFrom('renditions')
        .selectAll()
        .where('file_id', '=', fileId)
        .execute();
    const [row] = await rows();
    assert.ok(row, 'the rendition is recorded');
    assert.equal((await server.client.call('DELETE', `/api/v1/file/${fileId}`, { token })).status, 204);
    assert.equal((await fetch(fresh)).status, 404);
    assert.deepEqual(await rows(), [], 'its renditions went with the file');
    // The bytes go with the next collection past the grace period.
    assert.ok(await server.services.blobs.head(row.blob_key, row.blob_version));
    await collectPastGrace({ apply: true });
    assert.equal(await server.services.blobs.head(row.blob_key, row.blob_version), undefined);
  });

  it('renders a new rendition once for 50 concurrent requests, and keeps it from the collector', async () => {
    const fileId = await upload(await jpegWithExif(), 'image/jpeg');
    const url = await linkOf(fileId, { width: '120', height: '90', format: 'webp' });
    const before = await renderedCount();
    const answers = await Promise.all(Array.from({ length: 50 }, () => fetchImage(url)));
    for (const { response } of answers) assert.equal(response.status, 200);
    assert.equal(new Set(answers.map(({ response }) => response.headers.get('etag'))).size, 1);
    assert.equal((await renderedCount()) - before, 1);
    // A later link to the same rendition serves the stored one.
    await fetchImage(await linkOf(fileId, { width: '120', height: '90', format: 'webp' }));
    assert.equal((await renderedCount()) - before, 1);
    const report = await collectPastGrace({ apply: false });
    assert.ok(
      !report.items.some((item) => item.name.includes(`${fileId}-r-`)),
      'a live rendition is not stray',
    );
  });

  it('follows the project setting: presets only, or off', async () => {
    const { projectId } = server.credentials;
    const projects = server.services.repositories.projects;
    const fileId = await upload(await jpegWithExif(), 'image/jpeg');
    const project = (await projects.findById(projectId))!;
    const { assignSettings } = await import('../../src/domain/identity/assign-project-settings.ts');
    const change = (assignments: string[]) =>
      projects.updateSettings(projectId, assignSettings(project.settings, assignments));
    await change(['renditions=presets', 'renditions.thumb=64x64,cover,webp,q70']);
    try {
      // Settings are cached until the access epoch moves: wait for the change to be seen.
      await waitFor(async () => (await ask(fileId, { width: '10' })).status === 403);
      expectError(await ask(fileId, { width: '10' }), 403, 'RENDITIONS_DISABLED');
      const url = await linkOf(fileId, { rendition: 'thumb' });
      assert.match(url, /\/64x64-cover-webp-q70\?/);
      const { bytes } = await fetchImage(url);
      assert.equal((await sharp(bytes).metadata()).width, 64);
      await change(['renditions=off']);
      await waitFor(async () => (await ask(fileId, { rendition: 'thumb' })).status === 403);
      expectError(await ask(fileId, { rendition: 'thumb' }), 403, 'RENDITIONS_DISABLED');
      // Without rendition parameters nothing changes.
      assert.equal((await ask(fileId, {})).status, 200);
    } finally {
      await projects.updateSettings(projectId, project.settings);
    }
  });
});

describe('image renditions under pressure', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_NEW_RENDITIONS_PER_USER_PER_HOUR: '4',
        COFFER_RENDITION_CONCURRENCY: '1',
        COFFER_RENDITION_QUEUE_LENGTH: '0',
      },
    );
    ({ token } = await server.client.signup());
  });
  after(() => server?.stop());

  it('answers 503 with Retry-After when the queue is full, and throttles new sizes per user', async () => {
    const big = await largeJpeg({ megapixels: 6 });
    const file = await server.client.uploadFile(token, 'big.jpg', big, { contentType: 'image/jpeg' });
    const links = [];
    for (const width of ['100', '101', '102', '103']) {
      const answer = await server.client.call('GET', `/api/v1/file/${file._id}?width=${width}`, { token });
      assert.equal(answer.status, 200, answer.text);
      links.push(answer.body.url as string);
    }
    // A fifth new size within the hour is one too many for this user.
    const fifth = await server.client.call('GET', `/api/v1/file/${file._id}?width=104`, { token });
    assert.equal(fifth.status, 429);
    assert.equal(fifth.body.code, 'RATE_LIMITED');
    assert.ok(Number(fifth.headers.get('retry-after')) > 0);
    // One render slot and no queue: of four distinct renders at once, some wait their turn out.
    const answers = await Promise.all(links.map((url) => fetch(url)));
    const statuses = answers.map((answer) => answer.status);
    assert.ok(
      statuses.every((status) => status === 200 || status === 503),
      String(statuses),
    );
    assert.ok(statuses.includes(200) && statuses.includes(503), String(statuses));
    const busy = answers.find((answer) => answer.status === 503)!;
    assert.equal(((await busy.json()) as { code: string }).code, 'RENDER_BUSY');
    assert.ok(Number(busy.headers.get('retry-after')) > 0);
    await Promise.all(answers.filter((answer) => !answer.bodyUsed).map((answer) => answer.body?.cancel()));
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
