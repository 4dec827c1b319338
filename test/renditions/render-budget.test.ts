import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { buildApp } from '../../src/app.ts';
import { toStorageKey } from '../../src/domain/files/storage-key.ts';
import { buildServices } from '../../src/services.ts';
import type { ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { peakRssBytes, resetPeakRss, toMiB } from '../support/peak-rss.ts';

/**
 * Issue 35: a render is bounded by the memory it takes, decided from the header. A 7000×7000
 * PNG, 16-bit and interlaced, is under the pixel limit but decodes whole at 6 bytes a pixel
 * (~300 MiB); it is refused once, without decoding, and the refusal is kept for that version.
 * The server runs in this process: its peak RSS (VmHWM) is measured around each request.
 */
describe('image renditions within the render budget', () => {
  let server: TestServer;
  let token: string;
  let count = 0;
  before(async () => {
    server = await startTestServer();
    ({ token } = await server.client.signup());
  });
  after(() => server?.stop());

  const side = 7000;
  const flat = () =>
    sharp({ create: { width: side, height: side, channels: 3, background: { r: 200, g: 30, b: 30 } } });
  const deepInterlacedPng = () => flat().toColourspace('rgb16').png({ progressive: true }).toBuffer();
  const upload = async (content: Buffer) => {
    const file = await server.client.uploadFile(token, `budget/${count++}.png`, content, {
      contentType: 'image/png',
    });
    return file._id as string;
  };
  const ask = (fileId: string, query: Record<string, string>): Promise<ApiResponse> =>
    server.client.call('GET', `/api/v1/file/${fileId}?${new URLSearchParams(query)}`, { token });
  const linkOf = async (fileId: string, query: Record<string, string>) => {
    const answer = await ask(fileId, query);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.url as string;
  };
  const expectError = (answer: { status: number; body: { code?: string } }, status: number, code: string) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.code, code);
  };
  /** What `request` took at its peak, on top of what the process held when it began. */
  const peakGrowthOf = async <T>(request: () => Promise<T>): Promise<{ result: T; grownBytes: number }> => {
    resetPeakRss();
    const before = peakRssBytes();
    const result = await request();
    return { result, grownBytes: peakRssBytes() - before };
  };
  const renderedCount = async () => {
    const text = await server.services.metrics.registry.getSingleMetricAsString(
      'coffer_renditions_rendered_total',
    );
    return Number(/coffer_renditions_rendered_total (\d+)/.exec(text)?.[1] ?? 0);
  };
  /** A gateway answer as an error body (an image, where one was rendered, reads as no code). */
  const fetchJson = async (url: string) => {
    const response = await fetch(url);
    const isJson = response.headers.get('content-type')?.startsWith('application/json');
    const body = isJson ? ((await response.json()) as { code?: string; message?: string }) : {};
    if (!isJson) await response.arrayBuffer();
    return { status: response.status, body };
  };

  it('refuses a 16-bit interlaced 7000×7000 PNG from its header, once, and remembers it for that version', async (t) => {
    const fileId = await upload(await deepInterlacedPng());
    // The record knows no dimensions yet (no summary): the link is issued, the gateway decides.
    const url = await linkOf(fileId, { width: '200' });
    const rendered = await renderedCount();
    const { result: refused, grownBytes } = await peakGrowthOf(() => fetchJson(url));
    t.diagnostic(`the server's peak RSS grew ${toMiB(grownBytes)} MiB refusing it`);
    expectError(refused, 422, 'IMAGE_TOO_LARGE');
    assert.match(
      refused.body.message ?? '',
      /decoding it takes about \d+ MiB of memory, a render may take 200 MiB/,
    );
    // A render of it took the server's peak up by 320 MiB or more (and before, answered 200).
    assert.ok(grownBytes < 100 * 2 ** 20, `the peak RSS grew ${toMiB(grownBytes)} MiB refusing it`);
    assert.equal(await renderedCount(), rendered);

    // Remembered for this version: no new link to any size of it is issued…
    expectError(await ask(fileId, { width: '64', format: 'jpeg' }), 422, 'IMAGE_TOO_LARGE');
    // …and the link already out is answered from the record, without reading the source again:
    // with the source's bytes gone from the store, a read would fail, yet the answer is the same.
    const file = await server.services.repositories.files.findById(fileId);
    assert.ok(file?.blobVersion);
    await server.services.blobs.delete(toStorageKey(file), file.blobVersion);
    const again = await fetchJson(url);
    expectError(again, 422, 'IMAGE_TOO_LARGE');
    assert.equal(again.body.message, refused.body.message);
    assert.equal(await renderedCount(), rendered);
  });

  it('summarizes such an image from its header: its dimensions, no placeholder, nothing decoded', async (t) => {
    const fileId = await upload(await deepInterlacedPng());
    const { grownBytes } = await peakGrowthOf(() => server.services.imageSummarizer.summarizeDue(50));
    t.diagnostic(`the server's peak RSS grew ${toMiB(grownBytes)} MiB summarizing it`);
    const { body } = await ask(fileId, {});
    assert.equal(body.meta.width, side);
    assert.equal(body.meta.height, side);
    assert.equal(body.meta.placeholder ?? null, null);
    assert.ok(grownBytes < 100 * 2 ** 20, `the peak RSS grew ${toMiB(grownBytes)} MiB summarizing it`);
  });

  it('renders a 7000×7000 8-bit PNG, which streams, within the budget; refuses a 4096² AVIF of it, but not smaller ones', async (t) => {
    const fileId = await upload(await flat().png().toBuffer());
    const url = await linkOf(fileId, { width: '200' });
    const { result: response, grownBytes } = await peakGrowthOf(() => fetch(url));
    const bytes = Buffer.from(await response.arrayBuffer());
    t.diagnostic(`the server's peak RSS grew ${toMiB(grownBytes)} MiB rendering it`);
    assert.equal(response.status, 200, bytes.toString());
    assert.equal((await sharp(bytes).metadata()).width, 200);
    assert.ok(grownBytes < 200 * 2 ** 20, `the peak RSS grew ${toMiB(grownBytes)} MiB rendering it`);

    // AVIF's encoder holds ~22 bytes a rendition pixel: 4096² would take ~370 MB at its peak.
    const large = await fetchJson(await linkOf(fileId, { width: '4096', format: 'avif' }));
    expectError(large, 422, 'IMAGE_TOO_LARGE');
    assert.match(large.body.message ?? '', /ask for a smaller size or another format/);
    // Only that size and format: the source itself is not refused.
    const small = await fetch(await linkOf(fileId, { width: '300', format: 'avif' }));
    assert.equal(small.status, 200);
    assert.equal(small.headers.get('content-type'), 'image/avif');
  });

  it('decides a refused source again where the budget has been raised', async () => {
    const fileId = await upload(await deepInterlacedPng());
    const url = await linkOf(fileId, { width: '200' });
    expectError(await fetchJson(url), 422, 'IMAGE_TOO_LARGE');
    // Another node over the same stores, whose operator allows renders of 1 GiB.
    const services = await buildServices({ ...server.services.config, renditionMaxMemoryBytes: 2 ** 30 });
    const app = await buildApp(services, { logger: false });
    try {
      const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
      const rendered = await fetch(url.replace(server.baseUrl, baseUrl));
      const bytes = Buffer.from(await rendered.arrayBuffer());
      assert.equal(rendered.status, 200, bytes.toString());
      assert.equal((await sharp(bytes).metadata()).width, 200);
    } finally {
      await app.close();
      await services.close();
    }
  });
});
