import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { currentStackName } from './test-stack.ts';

/**
 * How a store tags the bytes of one put: with their MD5 (S3, for an object stored in one part)
 * or with the first 128 bits of their SHA-256 (the local stores: disk and memory).
 */
export type EtagScheme = 'md5' | 'truncated-sha256';

export type GeneratedBodyOptions = {
  chunkBytes?: number;
  /** The source fails with an error once this many bytes have been sent. */
  failAtBytes?: number;
  /** Called after each chunk with the bytes sent so far (e.g. to abort mid-way). */
  onProgress?: (sentBytes: number) => void;
};

/**
 * A body of `totalBytes` generated on the fly (never held whole), with the tags of what it
 * sent under either scheme, so large uploads can be checked without a second copy in memory.
 */
export function generatedBody(totalBytes: number, options: GeneratedBodyOptions = {}) {
  const { chunkBytes = 64 * 1024, failAtBytes, onProgress } = options;
  const hashes = { md5: createHash('md5'), 'truncated-sha256': createHash('sha256') };
  async function* chunks() {
    let sentBytes = 0;
    for (let index = 0; sentBytes < totalBytes; index++) {
      if (failAtBytes !== undefined && sentBytes >= failAtBytes) throw new Error('source failed mid-way');
      const chunk = Buffer.alloc(Math.min(chunkBytes, totalBytes - sentBytes), index % 251);
      hashes.md5.update(chunk);
      hashes['truncated-sha256'].update(chunk);
      sentBytes += chunk.length;
      yield chunk;
      onProgress?.(sentBytes);
    }
  }
  return {
    body: Readable.from(chunks(), { objectMode: false }),
    /** The quoted tag of all bytes sent under `scheme`; call after the body has been consumed. */
    etag: (scheme: EtagScheme) => toQuotedTag(scheme, hashes[scheme].copy().digest()),
  };
}

export function bodyOf(bytes: Buffer | string): Readable {
  return Readable.from([Buffer.from(bytes)], { objectMode: false });
}

export async function readAll(body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body; // a store's get() answers small versions from memory
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Consumes a stream and returns its quoted MD5 and length, holding no more than one chunk. */
export async function md5Of(body: Readable | Buffer): Promise<{ etag: string; sizeBytes: number }> {
  const md5 = createHash('md5');
  let sizeBytes = 0;
  for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
    md5.update(chunk as Buffer);
    sizeBytes += (chunk as Buffer).length;
  }
  return { etag: `"${md5.digest('hex')}"`, sizeBytes };
}

export function quotedMd5(bytes: Buffer | string): string {
  return etagIn('md5', bytes);
}

/** The tag a store that tags with `scheme` gives these bytes stored in one part. */
export function etagIn(scheme: EtagScheme, bytes: Buffer | string): string {
  const algorithm = scheme === 'md5' ? 'md5' : 'sha256';
  return toQuotedTag(scheme, createHash(algorithm).update(bytes).digest());
}

/** The S3 store's part size (lib-storage's Upload): larger bodies become multipart objects. */
const s3PartBytes = 5 * 1024 * 1024;

/**
 * Every tag a Coffer store may give these bytes stored by one PUT, whichever store keeps them:
 * the local stores' truncated SHA-256, S3's MD5 and, for a body over one S3 part, S3's multipart
 * tag `"<md5 of the parts' md5s>-<n>"` (Ceph RGW gives that, s3rver the MD5 of the whole). For
 * checks that hold a server to the bytes it was sent whatever store it runs on (a crash test
 * may run the disk store on the pg-s3 stack); each tag is a digest of the bytes.
 */
export function etagsOf(bytes: Buffer | string): string[] {
  const whole = Buffer.from(bytes);
  const tags = [etagIn('truncated-sha256', whole), etagIn('md5', whole)];
  if (whole.length <= s3PartBytes) return tags;
  const parts = createHash('md5');
  let count = 0;
  for (let start = 0; start < whole.length; start += s3PartBytes, count++)
    parts.update(
      createHash('md5')
        .update(whole.subarray(start, start + s3PartBytes))
        .digest(),
    );
  return [...tags, `"${parts.digest('hex')}-${count}"`];
}

/**
 * The tag the current test stack's store gives these bytes stored by one PUT: on the embedded
 * stack the disk store's truncated SHA-256, on pg-s3 S3's MD5 (for at most one S3 part).
 */
export function expectedEtag(bytes: Buffer | string): string {
  if (!isStackOnS3()) return etagIn('truncated-sha256', bytes);
  const sizeBytes = Buffer.byteLength(bytes);
  if (sizeBytes > s3PartBytes)
    throw new Error(`${sizeBytes} bytes become an S3 multipart object, tagged by its parts: use etagsOf`);
  return etagIn('md5', bytes);
}

/** Whether the current test stack keeps blobs in S3 (as prepareTestStack chooses), not on disk. */
export function isStackOnS3(): boolean {
  return currentStackName() === 'pg-s3' && process.env.COFFER_TEST_STORAGE_URL !== undefined;
}

/** A digest quoted as a store that tags with `scheme` quotes it (the truncation: content-etag.ts). */
function toQuotedTag(scheme: EtagScheme, digest: Buffer): string {
  const tagged = scheme === 'md5' ? digest : digest.subarray(0, 16);
  return `"${tagged.toString('hex')}"`;
}

/** Runs `work` while sampling the process RSS; returns the peak growth over the start in bytes. */
export async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  const startRss = process.memoryUsage.rss();
  let peakRss = startRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peakRss, process.memoryUsage.rss()) - startRss;
}
