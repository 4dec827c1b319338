import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BenchContext } from '../bench-context.ts';
import { readRssBytes } from '../processes/coffer-server.ts';
import { median } from '../scenario.ts';
import {
  fillBytes,
  getDownloadLink,
  requestUploadLinks,
  seedWorkload,
  type Workload,
} from '../seed/workload.ts';
import { resumableTransfer } from './resumable-transfer.ts';
import { startRssSampler } from './rss-sampler.ts';
import { streamTransfer } from './stream-transfer.ts';

const MiB = 2 ** 20;

/** The bound: streaming, so a 1 GiB transfer grows the server's RSS by less than this. */
export const rssGrowthLimitMiB = 64;

export type TransferMemory = {
  rssBeforeMiB: number;
  rssPeakMiB: number;
  growthMiB: number;
  mibPerSecond: number;
};
export type MemoryResult = {
  sizeBytes: number;
  upload?: TransferMemory;
  download?: TransferMemory;
  /** The same file as a resumable upload in 5 MiB PATCHes (issue 20: ≥ 0.8× the PUT's speed). */
  resumable?: TransferMemory;
  /**
   * The resumable upload's speed over the PUT's: the median over `--rounds` pairs (a PUT, then
   * the resumable upload), the first pair being the measured transfers above. One pair alone
   * swung between 0.75× and 0.88× on a quiet machine.
   */
  resumableShare?: { median: number; rounds: number[] };
  error?: string;
};

/** Issue 20: a resumable upload keeps at least this share of the one-shot PUT's throughput. */
export const resumableSpeedShare = 0.8;

/**
 * RSS of a fresh server (sampled from /proc every 20 ms) while one client uploads a file of
 * `memoryBytes` through a signed link and then downloads it. The file is made on disk in the
 * bench's temp dir and streamed both ways, and deleted with that dir.
 */
export async function measureTransferMemory(context: BenchContext): Promise<MemoryResult> {
  const sizeBytes = context.options.memoryBytes;
  const file = path.join(context.workDir, 'memory-transfer.bin');
  try {
    const workload = await seedWorkload(await context.startCoffer('memory'), 'memory');
    await writeFileOfSize(file, sizeBytes);
    // Warm-up: JIT, buffers and pools settle before the "before" reading.
    for (let i = 0; i < 2; i++) await roundTrip(workload, Readable.from([fillBytes(8 * MiB)]), 8 * MiB);
    const measured = await roundTrip(workload, createReadStream(file, { highWaterMark: MiB }), sizeBytes);
    const resumable = await resumableUpload(workload, file, sizeBytes);
    const shares = [resumable.mibPerSecond / measured.upload.mibPerSecond];
    for (let round = 1; round < context.options.rounds; round++) {
      const put = await putSpeed(workload, file, sizeBytes);
      shares.push((await resumableUpload(workload, file, sizeBytes)).mibPerSecond / put);
    }
    return { sizeBytes, ...measured, resumable, resumableShare: { median: median(shares), rounds: shares } };
  } catch (error) {
    console.error(`  memory failed: ${(error as Error).stack}`);
    return { sizeBytes, error: (error as Error).message };
  } finally {
    await rm(file, { force: true });
  }
}

/** Upload, verify, download: the RSS of each transfer against the reading just before it. */
async function roundTrip(workload: Workload, body: Readable, sizeBytes: number) {
  // The worker serves the transfers; the primary only hands it connections.
  const pid = workload.server.workerPid;
  const [link] = await requestUploadLinks(workload, 1, `memory/${randomBytes(3).toString('hex')}`);
  const upload = await measure(pid, sizeBytes, () =>
    streamTransfer({
      url: `${link!.origin}${link!.path}`,
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(sizeBytes) },
      body,
    }),
  );
  const verified = await workload.api.call('POST', `/api/v1/file/${link!.fileId}/verify`, {
    token: workload.token,
    body: { etag: upload.etag },
  });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${verified.text}`);
  const download = await getDownloadLink(workload, link!.fileId);
  const got = await measure(pid, sizeBytes, () =>
    streamTransfer({ url: `${download.origin}${download.path}`, method: 'GET' }),
  );
  return { upload: upload.memory, download: got.memory };
}

/** One more one-shot PUT of the file, for the speed pairs: MiB/s. */
async function putSpeed(workload: Workload, file: string, sizeBytes: number): Promise<number> {
  const [link] = await requestUploadLinks(workload, 1, `memory/${randomBytes(3).toString('hex')}`);
  const started = performance.now();
  const answer = await streamTransfer({
    url: `${link!.origin}${link!.path}`,
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(sizeBytes) },
    body: createReadStream(file, { highWaterMark: MiB }),
  });
  if (answer.status !== 200) throw new Error(`transfer failed: ${answer.status} ${answer.text}`);
  return sizeBytes / MiB / ((performance.now() - started) / 1000);
}

/** The file again, as a resumable upload: RSS against the reading just before it, then verified. */
async function resumableUpload(workload: Workload, file: string, sizeBytes: number): Promise<TransferMemory> {
  const pid = workload.server.workerPid;
  const filePath = `memory/${randomBytes(3).toString('hex')}-resumable.bin`;
  let fileId = '';
  const measured = await measure(pid, sizeBytes, async () => {
    const answer = await resumableTransfer(workload, file, sizeBytes, filePath);
    fileId = answer.fileId;
    return { status: answer.status, text: answer.text, headers: { etag: answer.etag }, bytes: 0 };
  });
  const verified = await workload.api.call('POST', `/api/v1/file/${fileId}/verify`, {
    token: workload.token,
    body: { etag: measured.etag },
  });
  if (verified.status !== 200)
    throw new Error(`resumable verify failed: ${verified.status} ${verified.text}`);
  return measured.memory;
}

async function measure(pid: number, sizeBytes: number, transfer: () => ReturnType<typeof streamTransfer>) {
  const before = await readRssBytes(pid);
  const sampler = startRssSampler(pid);
  const started = performance.now();
  const answer = await transfer();
  const seconds = (performance.now() - started) / 1000;
  const peak = await sampler.stop();
  if (answer.status !== 200) throw new Error(`transfer failed: ${answer.status} ${answer.text}`);
  const memory: TransferMemory = {
    rssBeforeMiB: before / MiB,
    rssPeakMiB: peak / MiB,
    growthMiB: Math.max(0, peak - before) / MiB,
    mibPerSecond: sizeBytes / MiB / seconds,
  };
  return { memory, etag: String(answer.headers.etag ?? '') };
}

async function writeFileOfSize(file: string, sizeBytes: number): Promise<void> {
  const block = fillBytes(MiB);
  async function* blocks() {
    for (let written = 0; written < sizeBytes; written += block.length)
      yield block.subarray(0, Math.min(block.length, sizeBytes - written));
  }
  await pipeline(Readable.from(blocks()), createWriteStream(file));
}
