import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toClaimedParts } from './s3-multipart-links.ts';

const part = (partNumber: number | string, etag: string) =>
  `<Part><PartNumber>${partNumber}</PartNumber><ETag>${etag}</ETag></Part>`;

describe("toClaimedParts reads S3's <CompleteMultipartUpload> as Uppy's @uppy/aws-s3 sends it", () => {
  it('takes the parts in the order sent, ETags with or without quotes, entities decoded', () => {
    const xml = `<?xml version="1.0"?>\n<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${part(2, '&quot;b2&quot;')}\n ${part(1, 'a1')}</CompleteMultipartUpload>`;
    assert.deepEqual(toClaimedParts(xml), [
      { partNumber: 2, etag: '"b2"' },
      { partNumber: 1, etag: 'a1' },
    ]);
  });

  it('refuses anything else with VALIDATION_FAILED', () => {
    for (const xml of [
      '',
      '<CompleteMultipartUpload></CompleteMultipartUpload>',
      `<CompleteMultipartUpload>${part(1, 'a')}<Extra/></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload>${part(0, 'a')}</CompleteMultipartUpload>`,
      `<CompleteMultipartUpload>${part(10_001, 'a')}</CompleteMultipartUpload>`,
      `<CompleteMultipartUpload>${part('x', 'a')}</CompleteMultipartUpload>`,
      `<Other>${part(1, 'a')}</Other>`,
    ])
      assert.throws(() => toClaimedParts(xml), { code: 'VALIDATION_FAILED' }, xml);
  });
});
