import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

export type GeneratedBodyOptions = {
  chunkBytes?: number;
  /** The source fails with an error once this many bytes have been sent. */
  failAtBytes?: number;
  /** Called after each chunk with the bytes sent so far (e.g. to abort mid-way). */
  onProgress?: (sentBytes: number) => void;
};

/**
 * A body of `totalBytes` generated on the fly (never held whole), with the quoted MD5 of what
 * it sent, so large uploads can be checked without a second copy in memory.
 */
export function generatedBody(totalBytes: number, options: GeneratedBodyOptions = {}) {
  const { chunkBytes = 64 * 1024, failAtBytes, onProgress } = options;
  const md5 = createHash('md5');
  async function* chunks() {
    let sentBytes = 0;
    for (let index = 0; sentBytes < totalBytes; index++) {
      if (failAtBytes !== undefined && sentBytes >= failAtBytes) throw new Error('source failed mid-way');
      const chunk = Buffer.alloc(Math.min(chunkBytes, totalBytes - sentBytes), index % 251);
      md5.update(chunk);
      sentBytes += chunk.length;
      yield chunk;
      onProgress?.(sentBytes);
    }
  }
  return {
    body: Readable.from(chunks(), { objectMode: false }),
    /** The quoted MD5 of all bytes sent; call after the body has been consumed. */
    etag: () => `"${md5.digest('hex')}"`,
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
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
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
