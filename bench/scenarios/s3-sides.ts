/**
 * Baselines of the pg-s3 stack's byte scenarios: the S3 server itself. Coffer's download links
 * there are S3 presigned URLs that bypass Coffer, so their ceiling is the same object through
 * a link the AWS SDK presigns; an upload through Coffer's gateway is compared with the same
 * body PUT straight to the S3 server.
 */
import { randomBytes } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BenchContext } from '../bench-context.ts';
import { splitUrl } from '../seed/workload.ts';

type Link = { origin: string; path: string };

/** A link the AWS SDK presigns for the object Coffer's presigned download link names. */
export async function sdkDownloadLink(context: BenchContext, coffers: Link): Promise<Link> {
  const { client, bucket } = await s3Client(context);
  const pathname = coffers.path.split('?')[0]!;
  const Key = decodeURIComponent(pathname.slice(`/${bucket}/`.length));
  return splitUrl(
    await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key }), { expiresIn: 86_400 }),
  );
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
