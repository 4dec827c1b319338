import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { contentMismatch } from '../../errors/errors.ts';
import type { BlobStore, StoredBlob } from '../blobs/blob-store.ts';
import { toContentType } from '../files/content-type.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { HashThread } from '../files/hash-thread.ts';
import { sniffContentType, sniffSampleBytes } from '../files/sniff-content-type.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { UploadLimits } from '../files/upload-limits.ts';

export type StoredContentOptions = { blobs: BlobStore; hashes: HashThread; limits: UploadLimits };

/**
 * A completed resumable upload's content held to what a PUT's is (check-upload-body.ts): its
 * type told by its first bytes when the request named none, both types allowed by the project,
 * and its SHA-256 the declared one. Answers the content type the record keeps.
 */
export async function checkStoredContent(
  options: StoredContentOptions,
  file: FileRecord,
  stored: StoredBlob,
  checksumSha256: string,
): Promise<string> {
  const head = await readHead(options.blobs, file, stored);
  const sniffed = await sniffContentType(head);
  const contentType = toContentType(file.declared.contentType ?? undefined, file.filePath, sniffed);
  await options.limits.assertTypeAllowed(file.projectId, contentType);
  // security: bytes that tell another type (HTML labelled image/png) must be allowed too.
  if (sniffed) await options.limits.assertTypeAllowed(file.projectId, sniffed);
  const declared = file.declared.checksumSha256;
  if (declared !== null && declared !== checksumSha256)
    throw contentMismatch(`checksum: the SHA-256 of the upload is ${checksumSha256}, declared ${declared}`);
  return contentType;
}

/**
 * The SHA-256 (base64) and CRC-32 of a stored version, read back whole in one pass: when no
 * running digest was kept.
 */
export async function hashStoredVersion(
  options: StoredContentOptions,
  key: string,
  version: string,
): Promise<{ sha256: string; crc32: number }> {
  const opened = await options.blobs.get(key, version);
  if (!opened) throw new Error(`the published version ${key}.${version} cannot be read`);
  const sha256 = options.hashes.open();
  let crc = 0;
  try {
    const chunks = Buffer.isBuffer(opened.body) ? [opened.body] : (opened.body as Readable);
    for await (const chunk of chunks) {
      crc = crc32(chunk as Buffer, crc);
      await sha256.update(chunk as Buffer);
    }
  } catch (error) {
    sha256.discard();
    throw error;
  }
  return { sha256: (await sha256.digest()).toString('base64'), crc32: crc };
}

async function readHead(blobs: BlobStore, file: FileRecord, stored: StoredBlob): Promise<Buffer> {
  if (stored.sizeBytes === 0) return Buffer.alloc(0);
  const key = toStorageKey(file);
  const end = Math.min(sniffSampleBytes, stored.sizeBytes) - 1;
  const opened = await blobs.get(key, stored.version, { range: { start: 0, end } });
  if (!opened) throw new Error(`the published version ${key}.${stored.version} cannot be read`);
  if (Buffer.isBuffer(opened.body)) return opened.body;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
