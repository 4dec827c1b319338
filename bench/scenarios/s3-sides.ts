/**
 * Baselines of the pg-s3 stack's byte scenarios: the S3 server itself. A project's download
 * links there go through Coffer's gateway by default, or are S3 presigned URLs when the project
 * chose `downloads=presigned` (issue 23, item 10); either is compared with the same object
 * through a link the AWS SDK presigns. An upload through Coffer's gateway is compared with the
 * same body PUT straight to the S3 server.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { runCli } from '../../test/support/coffer-process.ts';
import type { BenchContext } from '../bench-context.ts';
import { getDownloadLink, splitUrl, type Workload } from '../seed/workload.ts';

type Link = { origin: string; path: string };

/** A link the AWS SDK presigns for the object a presigned download link of Coffer's names. */
export async function sdkDownloadLink(context: BenchContext, coffers: Link): Promise<Link> {
  const { client, bucket } = await s3Client(context);
  const pathname = coffers.path.split('?')[0]!;
  const Key = decodeURIComponent(pathname.slice(`/${bucket}/`.length));
  return splitUrl(
    await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key }), { expiresIn: 86_400 }),
  );
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

/** A link the AWS SDK presigns to PUT (and overwrite) one object of its own in the bench's bucket. */
export async function sdkUploadLink(context: BenchContext): Promise<Link> {
  const { client, bucket } = await s3Client(context);
  const Key = `bench-direct/${randomBytes(6).toString('hex')}.bin`;
  return splitUrl(
    await getSignedUrl(client, new PutObjectCommand({ Bucket: bucket, Key }), { expiresIn: 86_400 }),
  );
}

async function s3Client(context: BenchContext) {
  const s3 = await context.stores.s3();
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  return { client, bucket: s3.bucket };
}
