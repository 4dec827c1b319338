/**
 * The baseline of the S3-bound rows (issue 44 item 5): a plain S3 client, `@aws-sdk/client-s3`
 * alone, in a process of its own like the load generator (bench/load/load-process.ts). It PUTs
 * one object (PutObjectCommand, the body streamed from a file) or GETs one (GetObjectCommand, the
 * body read to its end), `amount` times one after another, and prints what the load process
 * prints (LoadProcessResult). Its client is configured as Coffer's S3 store configures its own
 * (src/blob-stores/s3-blob-store.ts: no CRC32 checksum trailers), so both send the same bytes.
 *
 *   node bench/load/s3-client-process.ts <spec.json>   (an S3ClientSpec)
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { LoadProcessResult } from './load-spec.ts';

export type S3ClientSpec = {
  operation: 'put' | 'get';
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  key: string;
  amount: number;
  /** The PUT's body (its whole content). */
  bodyFile?: string;
  bodyBytes?: number;
};

const spec = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as S3ClientSpec;
const client = new S3Client({
  region: 'us-east-1',
  endpoint: spec.endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: spec.accessKeyId, secretAccessKey: spec.secretAccessKey },
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

async function once(): Promise<void> {
  const { bucket: Bucket, key: Key } = spec;
  if (spec.operation === 'put') {
    const Body = createReadStream(spec.bodyFile!);
    await client.send(new PutObjectCommand({ Bucket, Key, Body, ContentLength: spec.bodyBytes }));
    return;
  }
  const { Body } = await client.send(new GetObjectCommand({ Bucket, Key }));
  // Read to the end and dropped, as the load generator drops Coffer's answer.
  for await (const _ of Body as Readable);
}

const latencies: number[] = [];
let errors = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
for (let sent = 0; sent < spec.amount; sent++) {
  const at = performance.now();
  try {
    await once();
    latencies.push(performance.now() - at);
  } catch (error) {
    errors++;
    console.error(`s3 ${spec.operation} ${spec.key}: ${(error as Error).message}`);
  }
}
const busySeconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))];
const result: LoadProcessResult = {
  requests2xx: latencies.length,
  non2xx: 0,
  errors,
  busySeconds,
  latencyP50Ms: at(0.5) ?? Number.NaN,
  latencyP99Ms: at(0.99) ?? Number.NaN,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  exhausted: 0,
};
client.destroy();
process.stdout.write(JSON.stringify(result));
