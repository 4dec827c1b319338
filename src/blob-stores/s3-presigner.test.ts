import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type S3Credentials, S3Presigner } from './s3-presigner.ts';

const signingDate = new Date('2026-11-23T14:05:01.123Z');
const keys: S3Credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const key = 'proj_1/Fi-le_2.0123456789abcdef01234567';

type Location = { bucket: string; region: string; endpoint?: string; forcePathStyle: boolean };
const locations: Record<string, Location> = {
  'path style on a custom endpoint (MinIO, s3rver)': {
    bucket: 'coffer-test',
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9000',
    forcePathStyle: true,
  },
  'virtual-hosted on AWS': { bucket: 'my-bucket', region: 'eu-west-3', forcePathStyle: false },
  'a dotted bucket on AWS (path style over TLS)': {
    bucket: 'my.bucket',
    region: 'us-east-1',
    forcePathStyle: false,
  },
  'path style under an endpoint path': {
    bucket: 'coffer-test',
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9000/s3/',
    forcePathStyle: true,
  },
  'a dotted bucket on a custom endpoint (path style over plain HTTP too)': {
    bucket: 'my.bucket',
    region: 'eu-west-1',
    endpoint: 'http://minio.local:9000',
    forcePathStyle: false,
  },
  'an upper-case bucket on AWS (path style)': {
    bucket: 'MyBucket',
    region: 'us-east-1',
    forcePathStyle: false,
  },
  'virtual-hosted on a custom endpoint': {
    bucket: 'blobs',
    region: 'auto',
    endpoint: 'https://example.r2.cloudflarestorage.com',
    forcePathStyle: false,
  },
};

/** The S3 client S3BlobStore configures (no checksum parameters, which a presigned link cannot honour). */
function sdkClient(location: Location, credentials: S3Credentials): S3Client {
  return new S3Client({
    ...location,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The AWS SDK's own link for the same request. */
async function sdkLink(
  location: Location,
  credentials: S3Credentials,
  command: GetObjectCommand | PutObjectCommand,
  options: { signableHeaders?: Set<string> } = {},
) {
  const client = sdkClient(location, credentials);
  const url = await getSignedUrl(client, command, { expiresIn: 900, signingDate, ...options });
  client.destroy();
  return url;
}

describe('S3Presigner signs exactly as the AWS SDK does', () => {
  for (const [name, location] of Object.entries(locations)) {
    it(`GET with response overrides: ${name}`, async () => {
      for (const credentials of [keys, { ...keys, sessionToken: 'session/token+with=chars' }]) {
        const presigner = new S3Presigner({
          ...location,
          credentials: async () => credentials,
          now: () => signingDate,
        });
        const disposition = `attachment; filename="R_sum_ _final_.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.txt`;
        const ours = await presigner.presign({
          method: 'GET',
          key,
          expiresInSeconds: 900,
          query: {
            'response-content-disposition': disposition,
            'response-content-type': 'text/plain; charset=utf-8',
          },
        });
        const theirs = await sdkLink(
          location,
          credentials,
          new GetObjectCommand({
            Bucket: location.bucket,
            Key: key,
            ResponseContentDisposition: disposition,
            ResponseContentType: 'text/plain; charset=utf-8',
          }),
        );
        assert.equal(ours, theirs);
      }
    });

    it(`PUT bound to its content type: ${name}`, async () => {
      const presigner = new S3Presigner({
        ...location,
        credentials: async () => keys,
        now: () => signingDate,
      });
      const ours = await presigner.presign({
        method: 'PUT',
        key,
        expiresInSeconds: 900,
        headers: { 'content-type': 'image/png' },
      });
      const theirs = await sdkLink(
        location,
        keys,
        new PutObjectCommand({ Bucket: location.bucket, Key: key, ContentType: 'image/png' }),
        { signableHeaders: new Set(['content-type']) },
      );
      assert.equal(ours, theirs);
    });
  }

  it('keeps a prefix and odd characters in the key as the SDK encodes them', async () => {
    const location = locations['path style on a custom endpoint (MinIO, s3rver)']!;
    const presigner = new S3Presigner({ ...location, credentials: async () => keys, now: () => signingDate });
    const odd = "deploy one/it's (a) *key*~+é";
    const ours = await presigner.presign({ method: 'GET', key: odd, expiresInSeconds: 900 });
    const theirs = await sdkLink(location, keys, new GetObjectCommand({ Bucket: location.bucket, Key: odd }));
    assert.equal(ours, theirs);
  });

  it('derives a new signing key when the day or the secret changes', async () => {
    let now = signingDate;
    let credentials = keys;
    const location = locations['virtual-hosted on AWS']!;
    const presigner = new S3Presigner({ ...location, credentials: async () => credentials, now: () => now });
    await presigner.presign({ method: 'GET', key, expiresInSeconds: 900 });
    now = new Date('2026-11-24T00:00:03Z');
    credentials = { accessKeyId: 'AKIDROTATED', secretAccessKey: 'another secret' };
    const ours = await presigner.presign({ method: 'GET', key, expiresInSeconds: 900 });
    const client = sdkClient(location, credentials);
    const theirs = await getSignedUrl(client, new GetObjectCommand({ Bucket: location.bucket, Key: key }), {
      expiresIn: 900,
      signingDate: now,
    });
    client.destroy();
    assert.equal(ours, theirs);
  });

  it('refuses an expiry the protocol does not allow', async () => {
    const presigner = new S3Presigner({
      ...locations['virtual-hosted on AWS']!,
      credentials: async () => keys,
    });
    for (const expiresInSeconds of [0, 604801])
      await assert.rejects(presigner.presign({ method: 'GET', key, expiresInSeconds }), RangeError);
  });
});
