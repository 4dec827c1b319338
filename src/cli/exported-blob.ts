import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConfigError, toFileErrorReason } from '../config/config-error.ts';
import { privateFileMode } from './private-files.ts';

// One verified file's bytes in an export (blobs/<projectId>/<fileId>) and the sidecar beside
// them (<fileId>.json): the content type to store them under, and what the export measured
// while it wrote them (sizeBytes, sha256), so an import can tell that they arrived whole.

/** What an export writes beside a file's bytes; exports before issue 25 hold contentType only. */
export type BlobSidecar = { contentType: string; etag?: unknown; sizeBytes?: number; sha256?: string };

/** A file's bytes as measured on the way: their count and SHA-256 (base64, as content_sha256). */
export type BlobDigest = { sizeBytes: number; sha256: string };

/** Streams `body` into a new private file, measuring it; never holds more than a chunk. */
export async function writeBlobFile(body: Readable, file: string): Promise<BlobDigest> {
  const digest = digestOnTheWay();
  await pipeline(body, digest.transform, createWriteStream(file, { flags: 'wx', mode: privateFileMode }));
  return digest.result();
}

/** Reads a blob file through once, measuring it. */
export async function measureBlobFile(file: string): Promise<BlobDigest> {
  const digest = digestOnTheWay();
  await pipeline(createReadStream(file), digest.transform, async (chunks: AsyncIterable<Buffer>) => {
    for await (const _ of chunks);
  });
  return digest.result();
}

/** The sidecar of a blob file; undefined when it is missing or not a sidecar. */
export async function readBlobSidecar(file: string): Promise<BlobSidecar | undefined> {
  try {
    const sidecar = JSON.parse(await readFile(`${file}.json`, 'utf8')) as BlobSidecar;
    return typeof sidecar?.contentType === 'string' ? sidecar : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Throws a ConfigError naming `file` unless its bytes are the ones its record describes
 * (toRecordMismatch); answers what it measured.
 */
export async function assertBlobMatchesRecord(options: {
  file: string;
  row: Record<string, unknown>;
  sidecar: BlobSidecar;
}): Promise<BlobDigest> {
  const { file, row, sidecar } = options;
  let measured: BlobDigest;
  try {
    measured = await measureBlobFile(file);
  } catch (error) {
    throw new ConfigError(`${file}: cannot read it (${toFileErrorReason(error)})`);
  }
  const mismatch = toRecordMismatch(measured, row, sidecar.sha256);
  if (mismatch) throw new ConfigError(`${file}: ${mismatch}`);
  return measured;
}

/**
 * How measured bytes differ from their file's record, or undefined when they do not: the
 * record's size (content_size_bytes), and the record's SHA-256 (content_sha256) or, for a
 * record without one (a direct upload that declared none), `measuredSha256` (what the export
 * measured while copying them from the store). The ETag is not compared: on S3 it is no digest
 * of the bytes for multipart uploads or KMS-encrypted objects (docs/decisions.md).
 */
export function toRecordMismatch(
  measured: BlobDigest,
  row: Record<string, unknown>,
  measuredSha256?: string,
): string | undefined {
  const what = `the bytes of file ${String(row.id)}`;
  const recordSize = row.content_size_bytes;
  if (typeof recordSize === 'number' && measured.sizeBytes !== recordSize)
    return `${what} are ${measured.sizeBytes} bytes; its record says ${recordSize}`;
  const [expected, source] =
    typeof row.content_sha256 === 'string'
      ? [row.content_sha256, "its record's SHA-256"]
      : [measuredSha256, 'the SHA-256 the export measured'];
  if (typeof expected === 'string' && measured.sha256 !== expected)
    return `${what} differ from what they should be: their SHA-256 is ${measured.sha256}, ${source} is ${expected}`;
  return undefined;
}

function digestOnTheWay() {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  return {
    async *transform(chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        sizeBytes += chunk.length;
        yield chunk;
      }
    },
    result: (): BlobDigest => ({ sizeBytes, sha256: hash.digest('base64') }),
  };
}
