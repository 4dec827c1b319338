/** Issue 21's rows: rendering a photo against sharp alone, and serving a stored rendition against a download. */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { RenditionSpec } from '../../src/domain/renditions/rendition-spec.ts';
import { configureSharp } from '../../src/images/configure-sharp.ts';
import { toBackground, writeAs } from '../../src/images/output-format.ts';
import { toRenditionSize } from '../../src/images/rendition-size.ts';
import { largeJpeg } from '../../test/support/test-images.ts';
import type { BenchContext } from '../bench-context.ts';
import { measureCpu } from '../probes/process-cpu.ts';
import type { Measurement, PreparedScenario, Scenario, Side } from '../scenario.ts';
import { fillBytes, getDownloadLink, splitUrl, type Workload } from '../seed/workload.ts';
import { loadSide, runTasks } from './sides.ts';

/**
 * Requests at once on either side: twice the server's render slots (COFFER_RENDITION_CONCURRENCY,
 * default 2), as from several clients, so that a slot never waits for a client's next request
 * while the previous one is stored and served. sharp alone gets the same four (libuv's pool).
 */
export const renderConcurrency = 4;
const resizeModes = ['cover', 'contain', 'fill', 'inside'] as const;

/**
 * A 12 MP photo-like JPEG, uploaded once per run of the bench, and summarized: the server's
 * summary of a new image (dimensions, placeholder) decodes the photo once, in a render slot.
 * Left to run in the background, it landed in whichever round was running, counted as that
 * round's CPU (issue 44 item 4).
 */
async function uploadPhoto(workload: Workload, megapixels: number) {
  const photo = await largeJpeg({ megapixels });
  const file = await workload.api.uploadFile(workload.token, `bench/photo-${Date.now()}.jpg`, photo, {
    contentType: 'image/jpeg',
  });
  await waitForSummary(workload, file._id);
  return { fileId: file._id, photo };
}

async function waitForSummary(workload: Workload, fileId: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const answer = await workload.api.call('GET', `/api/v1/file/${fileId}`, { token: workload.token });
    if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}`);
    if (answer.body.meta?.width !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the photo ${fileId} was not summarized within a minute`);
}

/** Each render needs a spec never rendered before: quality and fit vary, the size stays 256 px wide. */
export function specSequence() {
  let next = 0;
  return () => {
    const index = next++;
    return { quality: 20 + (index % 81), resize: resizeModes[Math.floor(index / 81) % resizeModes.length]! };
  };
}

/**
 * Times `count` tasks run `renderConcurrency` at a time, as a Measurement of tasks per second,
 * with the CPU they cost the server at `origin` (or this process, for sharp alone).
 */
function timeRenders(origin: string | undefined, count: number, task: () => Promise<void>) {
  return measureCpu(origin, () => runRenders(count, task));
}

export function runRenders(count: number, task: () => Promise<void>): Promise<Measurement> {
  return runTasks(count, renderConcurrency, task);
}

/** A rendition as a client gets one: its link from the API, then its bytes (rendered on first GET). */
export async function fetchRendition(workload: Workload, fileId: string, query: string): Promise<Buffer> {
  const answer = await workload.api.call('GET', `/api/v1/file/${fileId}?${query}`, { token: workload.token });
  if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}`);
  const rendition = await fetch(answer.body.url as string);
  const bytes = Buffer.from(await rendition.arrayBuffer());
  if (rendition.status !== 200) throw new Error(`render answered ${rendition.status}: ${bytes}`);
  return bytes;
}

export const renditionRender: Scenario = {
  id: 'rendition-render',
  title: 'Render a 12 MP JPEG to a 256 px WebP (new rendition: link, render, store, serve)',
  unit: 'req/s',
  metric: 'rate',
  // Issue 21: at least 0.8× the renders per second of sharp alone, in the bench's process.
  target: 0.8,
  prepare: async (context: BenchContext): Promise<PreparedScenario> => {
    const workload = await context.workload();
    const { fileId, photo } = await uploadPhoto(workload, context.options.smoke ? 1 : 12);
    const count = context.options.smoke ? 2 : 32;
    // Each side its own sequence: round k of either side renders the same specs (quality costs).
    const nextSpec = specSequence();
    const nextBaselineSpec = specSequence();
    const coffer: Side = {
      label: 'coffer',
      run: () =>
        timeRenders(workload.server.url, count, async () => {
          const { quality, resize } = nextSpec();
          await fetchRendition(workload, fileId, `width=256&format=webp&quality=${quality}&resize=${resize}`);
        }),
    };
    // Issue 44 item 4: sharp alone does exactly what Coffer's renderer does for the same spec —
    // the same box (toRenditionSize: width 256 and the height that keeps the photo's ratio; a
    // width-only `fill` left to sharp keeps the source's whole height, far more pixels), fit,
    // background, encoder and quality (writeAs), and the same source read (libvips reading the
    // stored file itself, as the disk store hands the renderer its version file). Configured the way the server does (no operation
    // cache: with libvips' cache this process's renders slowed down 2.5× in some rounds).
    configureSharp();
    const sourceFile = join(context.workDir, `photo-${Date.now()}.jpg`);
    await writeFile(sourceFile, photo);
    const { width = 0, height = 0 } = await sharp(photo).metadata();
    const alone: Side = {
      label: 'sharp alone',
      run: () =>
        timeRenders(undefined, count, async () => {
          const { quality, resize } = nextBaselineSpec();
          const spec: RenditionSpec = {
            width: 256,
            height: null,
            resize,
            format: 'webp',
            quality,
            animated: false,
            posterAtMs: null,
          };
          const pipeline = sharp(sourceFile, {
            failOn: 'error',
            sequentialRead: true,
            autoOrient: true,
            animated: false,
          }).resize({
            ...toRenditionSize({ width, height }, spec),
            fit: resize,
            withoutEnlargement: true,
            background: toBackground('webp'),
          });
          await writeAs(pipeline, 'webp', quality).toBuffer();
        }),
    };
    return { scenario: coffer, baselines: [alone] };
  },
};

export const renditionCached: Scenario = {
  id: 'rendition-cached',
  title: 'GET a stored rendition (256 px WebP) vs a download of the same size',
  unit: 'req/s',
  metric: 'rate',
  // Issue 21: a stored rendition is served at least 0.8× as fast as a plain download.
  target: 0.8,
  prepare: async (context: BenchContext): Promise<PreparedScenario> => {
    const workload = await context.workload();
    const { fileId } = await uploadPhoto(workload, context.options.smoke ? 1 : 12);
    const answer = await workload.api.call(
      'GET',
      `/api/v1/file/${fileId}?width=256&format=webp&expiresInSeconds=86400`,
      { token: workload.token },
    );
    if (answer.status !== 200) throw new Error(`rendition link: ${answer.status} ${answer.text}`);
    const rendition = splitUrl(answer.body.url as string);
    const rendered = await fetch(answer.body.url as string);
    const sizeBytes = (await rendered.arrayBuffer()).byteLength;
    if (rendered.status !== 200) throw new Error(`first render answered ${rendered.status}`);
    const plain = await workload.api.uploadFile(
      workload.token,
      `bench/same-size-${Date.now()}.bin`,
      fillBytes(sizeBytes),
      {
        contentType: 'application/octet-stream',
      },
    );
    const download = await getDownloadLink(workload, plain._id);
    const load = {
      connections: context.options.connections,
      durationSeconds: context.options.durationSeconds,
    };
    return {
      scenario: loadSide('coffer', {
        url: rendition.origin,
        request: { method: 'GET', path: rendition.path },
        ...load,
      }),
      baselines: [
        loadSide('download', {
          url: download.origin,
          request: { method: 'GET', path: download.path },
          ...load,
        }),
      ],
    };
  },
};
