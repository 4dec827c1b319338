import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseS3StorageUrl } from './s3-storage-url.ts';

it('reads bucket, endpoint, region, path style and prefix', () => {
  assert.deepEqual(
    parseS3StorageUrl(
      's3://coffer-blobs?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true&prefix=/prod/',
    ),
    {
      bucket: 'coffer-blobs',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      prefix: 'prod',
    },
  );
});

it('defaults to us-east-1, virtual-hosted style, no endpoint and no prefix', () => {
  assert.deepEqual(parseS3StorageUrl('s3://bucket'), {
    bucket: 'bucket',
    region: 'us-east-1',
    forcePathStyle: false,
  });
});

it('refuses other schemes, paths, unknown parameters and bad values', () => {
  for (const url of [
    'file:./data',
    's3://',
    's3://bucket/key',
    's3://bucket?forcepathstyle=true',
    's3://bucket?forcePathStyle=yes',
    's3://bucket?endpoint=not a url',
  ]) {
    assert.throws(() => parseS3StorageUrl(url), { code: 'VALIDATION_FAILED' }, url);
  }
});
