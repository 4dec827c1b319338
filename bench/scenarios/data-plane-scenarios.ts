/** /blob/v1 scenarios: signed downloads and uploads against node:http (and nginx) on the same disk. */
import { randomBytes } from 'node:crypto';
import type { BenchContext } from '../bench-context.ts';
import type { LoadOptions, LoadRequest } from '../run-load.ts';
import type { PreparedScenario, Scenario, Side } from '../scenario.ts';
import {
  fillBytes,
  findBlobFile,
  getDownloadLink,
  requestUploadLinks,
  type Workload,
} from '../seed/workload.ts';
import {
  deleteFileObjects,
  downloadLinksInBothModes,
  s3ClientSide,
  s3RelaySide,
  sdkDownloadLink,
} from './s3-sides.ts';
import { fromPool, loadSide } from './sides.ts';

/** The same file three ways: Coffer's signed link, node:http streaming it, nginx (when installed). */
async function downloadSides(
  context: BenchContext,
  fileId: string,
  sizeBytes: number,
): Promise<PreparedScenario> {
  const workload = await context.workload();
  const link = await getDownloadLink(workload, fileId);
  const large = sizeBytes > 1024 * 1024;
  // Large files: one stream at a time, a fixed number of transfers; small ones: a request-rate run.
  const load = large
    ? { connections: 1, amount: context.options.largeRequests, payloadBytes: sizeBytes }
    : { connections: context.options.connections, durationSeconds: context.options.durationSeconds };
  const get = (path: string): LoadRequest => ({ method: 'GET', path });
  const scenario = loadSide('coffer', { url: link.origin, request: get(link.path), ...load });
  if (context.options.stack === 'pg-s3') {
    // The coffer side is the project's default, the gateway streaming from S3; the baseline, a
    // plain S3 client GETting the same object (the presigned link names its key).
    const { presigned } = await downloadLinksInBothModes(workload, fileId);
    if (!large) return { scenario, baselines: [await sdkLinkSide(context, presigned, load)] };
    const direct = await s3ClientSide(context, {
      get: presigned,
      amount: load.amount!,
      payloadBytes: sizeBytes,
    });
    return { scenario, baselines: [direct, await s3RelaySide(context, load, presigned)] };
  }
  const blob = await findBlobFile(workload, fileId);
  const nodeHttp = await context.nodeHttpUrl(blob.root);
  const baselines: Side[] = [loadSide('node:http', { url: nodeHttp, request: get(blob.relative), ...load })];
  // Coffer answers small files from memory (small-blob-cache.ts): their ceiling does too, first.
  if (!large)
    baselines.unshift(
      loadSide('node:http from memory', { url: nodeHttp, request: get(`/memory${blob.relative}`), ...load }),
    );
  const nginx = await context.nginxUrl(blob.root);
  if (nginx) baselines.push(loadSide('nginx', { url: nginx, request: get(blob.relative), ...load }));
  return { scenario, baselines };
}

/** A 1 KiB download from S3 through a link the AWS SDK presigns, sent by the load generator. */
async function sdkLinkSide(
  context: BenchContext,
  presigned: { origin: string; path: string },
  load: Omit<LoadOptions, 'url' | 'request'>,
): Promise<Side> {
  const direct = await sdkDownloadLink(context, presigned);
  return loadSide('s3 direct', {
    url: direct.origin,
    request: { method: 'GET', path: direct.path },
    ...load,
  });
}

export const download1k: Scenario = {
  id: 'download-1k',
  title: 'GET signed download, 1 KiB',
  unit: 'req/s',
  metric: 'rate',
  // Issue 9: at least 0.8× node:http streaming the same file.
  target: 0.8,
  prepare: async (context) => downloadSides(context, (await context.workload()).smallFileId, 1024),
};

export const downloadLarge: Scenario = {
  id: 'download-large',
  title: 'GET signed download, large file',
  unit: 'MiB/s',
  metric: 'rate',
  target: 0.8,
  prepare: async (context) => {
    const workload = await context.workload();
    const size = context.options.largeBytes;
    const file = await workload.api.uploadFile(
      workload.token,
      `bench/large-${randomBytes(3).toString('hex')}.bin`,
      fillBytes(size),
      {
        contentType: 'application/octet-stream',
      },
    );
    return downloadSides(context, file._id, size);
  },
};

/** A large upload, raw or as the spec's multipart form, against node:http piping the same body to disk. */
function uploadScenario(form: 'raw' | 'multipart'): Scenario {
  return {
    id: `upload-large-${form}`,
    title: `PUT signed upload, large file, ${form}`,
    unit: 'MiB/s',
    metric: 'rate',
    // Issue 9: at least 0.85× node:http piping the same body to disk with fsync.
    target: 0.85,
    prepare: async (context) => {
      const workload = await context.workload();
      const size = context.options.largeBytes;
      const { body, contentType } = toUploadBody(fillBytes(size), form);
      const headers = { 'content-type': contentType };
      const amount = context.options.largeRequests;
      const load = {
        connections: 1,
        amount,
        payloadBytes: size,
        request: { method: 'PUT' as const, headers, body },
      };
      const scenario: Side = {
        label: 'coffer',
        run: async () => {
          // Each upload needs a fresh link (a record per file): asked for before the timing.
          const links = await requestUploadLinks(
            workload,
            amount,
            `upload/${randomBytes(3).toString('hex')}`,
          );
          const next = fromPool(links, (link) => ({ path: link.path }));
          const measured = await loadSide('coffer', {
            url: workload.server.url,
            nextRequest: next,
            ...load,
          }).run();
          await deleteFileObjects(
            context,
            workload,
            links.map((link) => link.fileId),
          );
          return measured;
        },
      };
      return { scenario, baselines: await onePutBaselines(context, workload, load) };
    },
  };
}

export const uploadLargeRaw = uploadScenario('raw');
export const uploadLargeMultipart = uploadScenario('multipart');

/**
 * The same body PUT once to what stores it, without Coffer: node:http writing to the same disk on
 * the embedded stack, the S3 server itself (through a link the AWS SDK presigns) on pg-s3.
 */
export async function onePutBaselines(
  context: BenchContext,
  workload: Workload,
  load: Omit<LoadOptions, 'url'>,
): Promise<Side[]> {
  if (context.options.stack === 'pg-s3') {
    const { amount, payloadBytes, request } = load;
    if (!amount || !payloadBytes || !Buffer.isBuffer(request.body))
      throw new Error('a PUT baseline on S3 needs an amount and a body of bytes');
    return [
      await s3ClientSide(context, { put: request.body, amount, payloadBytes }),
      await s3RelaySide(context, load),
    ];
  }
  const blob = await findBlobFile(workload, workload.smallFileId);
  const nodeHttp = await context.nodeHttpUrl(blob.root);
  return [loadSide('node:http', { url: nodeHttp, nextRequest: () => ({ path: '/upload' }), ...load })];
}

/** The body as the original SDKs send it (raw) or as the spec's form with its file part named `data`. */
function toUploadBody(content: Buffer, form: 'raw' | 'multipart'): { body: Buffer; contentType: string } {
  if (form === 'raw') return { body: content, contentType: 'application/octet-stream' };
  const boundary = `----coffer-bench-${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
