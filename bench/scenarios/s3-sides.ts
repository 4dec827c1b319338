/**
 * Baselines of the pg-s3 stack's byte scenarios: the S3 server itself. A project's download
 * links there go through Coffer's gateway by default, or are S3 presigned URLs when the project
 * chose `downloads=presigned` (issue 23, item 10). The large rows (issue 44 item 5) compare
 * Coffer with a plain S3 client, `@aws-sdk/client-s3` alone in a process of its own, PUTting and
 * GETting the same bytes to and from the same server (bench/load/s3-client-process.ts); the 1 KiB
 * gateway row keeps a link the AWS SDK presigns, sent by the load generator like Coffer's link.
 * RGW's own CPU is counted on neither side: the rows are judged by rate. What a run stores, a
 * Coffer's or the client's, is deleted after it (deleteStoredObjects): RGW's OSD keeps objects in
 * memory, and the 256 MiB rows would fill it within one run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { runCli } from '../../test/support/coffer-process.ts';
import type { BenchContext } from '../bench-context.ts';
import type { S3ClientSpec } from '../load/s3-client-process.ts';
import { measureCpu } from '../probes/process-cpu.ts';
import { type LoadOptions, runLoad, runLoadProcess } from '../run-load.ts';
import type { Side } from '../scenario.ts';
import { getDownloadLink, splitUrl, type Workload } from '../seed/workload.ts';

type Link = { origin: string; path: string };

/** A link the AWS SDK presigns for the object a presigned download link of Coffer's names. */
export async function sdkDownloadLink(context: BenchContext, coffers: Link): Promise<Link> {
  const { client, bucket } = await s3Client(context);
  const Key = await objectKeyOf(context, coffers);
  return splitUrl(
    await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key }), { expiresIn: 86_400 }),
  );
}

/** The key of the object a presigned download link of Coffer's names (path-style: /bucket/key). */
async function objectKeyOf(context: BenchContext, coffers: Link): Promise<string> {
  const { bucket } = await context.stores.s3();
  const pathname = coffers.path.split('?')[0]!;
  return decodeURIComponent(pathname.slice(`/${bucket}/`.length));
}

const s3ClientProcess = path.join(import.meta.dirname, '..', 'load', 's3-client-process.ts');

/**
 * A plain S3 client's side: `amount` PUTs of `body` to one key of its own (each overwriting the
 * last), or GETs of the object a presigned download link of Coffer's names, one at a time.
 */
export async function s3ClientSide(
  context: BenchContext,
  options: { amount: number; payloadBytes: number } & ({ put: Buffer } | { get: Link }),
): Promise<Side> {
  const s3 = await context.stores.s3();
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-s3-client-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const spec: S3ClientSpec = {
    operation: 'put' in options ? 'put' : 'get',
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    bucket: s3.bucket,
    key:
      'put' in options
        ? `bench-direct/${randomBytes(6).toString('hex')}.bin`
        : await objectKeyOf(context, options.get),
    amount: options.amount,
  };
  if ('put' in options) {
    spec.bodyFile = path.join(dir, 'body.bin');
    spec.bodyBytes = options.put.length;
    writeFileSync(spec.bodyFile, options.put);
  }
  const specFile = path.join(dir, 'spec.json');
  writeFileSync(specFile, JSON.stringify(spec));
  return {
    label: '@aws-sdk/client-s3',
    run: async () => {
      const measured = await measureCpu(s3.endpoint, () =>
        runLoadProcess(s3ClientProcess, specFile, options.payloadBytes),
      );
      const { exhausted: _, loadGeneratorCpuSeconds: __, ...rest } = measured;
      if (spec.operation === 'put') await deleteStoredObjects(context, [spec.key]);
      return rest;
    },
  };
}

/**
 * A file's download link in each of its project's modes, gateway and presigned (the longest
 * lifetime S3 takes); the project is left at its default (gateway) after.
 */
export async function downloadLinksInBothModes(
  workload: Workload,
  fileId: string,
): Promise<{ gateway: Link; presigned: Link }> {
  const isGateway = (link: Link) => link.origin === workload.server.url;
  const gateway = await linkOnceSet(workload, fileId, ['downloads=gateway'], isGateway);
  const presigned = await linkOnceSet(
    workload,
    fileId,
    ['downloads=presigned', 'presignedDownloadMaxSeconds=604800'],
    (link) => !isGateway(link),
  );
  await linkOnceSet(workload, fileId, ['downloads=', 'presignedDownloadMaxSeconds='], isGateway);
  return { gateway, presigned };
}

/** Sets the project's settings with the CLI, then asks for links until one is of the wanted kind. */
async function linkOnceSet(
  workload: Workload,
  fileId: string,
  assignments: string[],
  isWanted: (link: Link) => boolean,
): Promise<Link> {
  const { dataDir, databaseUrl, credentials } = workload.server;
  if (!databaseUrl) throw new Error('download modes need a server on PostgreSQL');
  const args = ['project', 'set', credentials.projectId, ...assignments];
  const set = await runCli([...args, '--data-dir', dataDir, '--database-url', databaseUrl]);
  if (set.code !== 0) throw new Error(`coffer ${args.join(' ')}: ${set.stderr}`);
  // Settings are cached behind the access epoch: every process sees the change within moments.
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await delay(50)) {
    const link = await getDownloadLink(workload, fileId);
    if (isWanted(link)) return link;
  }
  throw new Error(`coffer ${args.join(' ')}: the links did not change within 15 s`);
}

/**
 * The same transfer through plain node:http relaying to S3 (bench/servers/node-http-relay-server.ts),
 * driven by the load generator as Coffer is: a GET of the object a presigned download link of
 * Coffer's names, or PUTs of the load's body to a key of its own (each overwriting the last,
 * deleted after the run). The floor of any process between a client and S3.
 */
export async function s3RelaySide(
  context: BenchContext,
  load: Omit<LoadOptions, 'url' | 'request'> & { request?: LoadOptions['request'] },
  get?: Link,
): Promise<Side> {
  const relay = await context.relayUrl();
  const { client, bucket } = await s3Client(context);
  const Key = `bench-relay/${randomBytes(6).toString('hex')}.bin`;
  const command = get
    ? new GetObjectCommand({ Bucket: bucket, Key: await objectKeyOf(context, get) })
    : new PutObjectCommand({ Bucket: bucket, Key });
  const to = await getSignedUrl(client, command, { expiresIn: 86_400 });
  client.destroy();
  const relayPath = `/?to=${encodeURIComponent(to)}`;
  return {
    label: 'node:http relay',
    run: async () => {
      const measured = await runLoad({
        ...load,
        url: relay,
        request: { ...load.request, method: get ? 'GET' : 'PUT', path: relayPath },
      });
      if (!get) await deleteStoredObjects(context, [Key]);
      return measured;
    },
  };
}

/**
 * Deletes every object under these key prefixes of the bench's bucket, after the run that stored
 * them (untimed), so that a run's rows never fill RGW's in-memory OSD.
 */
export async function deleteStoredObjects(context: BenchContext, prefixes: readonly string[]): Promise<void> {
  const { client, bucket } = await s3Client(context);
  try {
    for (const Prefix of prefixes) {
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix })) {
        for (const { Key } of page.Contents ?? [])
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * On pg-s3, deletes the objects the workload's server stored for these files (every version, and a
 * resumable upload's parked tails: `<server prefix>/<project>/<file id>.…`); elsewhere nothing.
 */
export async function deleteFileObjects(
  context: BenchContext,
  workload: Workload,
  fileIds: readonly string[],
): Promise<void> {
  const { blobPrefix, credentials } = workload.server;
  if (context.options.stack !== 'pg-s3' || !blobPrefix) return;
  await deleteStoredObjects(
    context,
    fileIds.map((fileId) => `${blobPrefix}/${credentials.projectId}/${fileId}.`),
  );
}

async function s3Client(context: BenchContext) {
  const s3 = await context.stores.s3();
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    // As Coffer's store: a presigned PUT would otherwise carry the CRC32 of an empty body.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { client, bucket: s3.bucket };
}
