import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isAppError } from '../../errors/app-error.ts';
import { contentMismatch, unavailable } from '../../errors/errors.ts';
import type { AdoptedBlob, BlobStore } from '../blobs/blob-store.ts';
import { ContentCheckStream } from './content-check-stream.ts';
import { toContentType } from './content-type.ts';
import type { FileRecord, PendingUpload } from './file-record.ts';
import { discardBlob } from './file-stores.ts';
import type { HashThread } from './hash-thread.ts';
import { toStorageKey } from './storage-key.ts';

/** Direct-upload mode: the client PUT to the store itself; copy what it holds into a version. */
export async function adoptDirectUpload(
  options: { blobs: BlobStore; hashes: HashThread; directUploads?: boolean },
  file: FileRecord,
  etag: string,
): Promise<PendingUpload | undefined> {
  const { blobs } = options;
  if (!options.directUploads || !blobs.adoptDirectUpload) return undefined;
  const key = toStorageKey(file);
  const adopted = await blobs.adoptDirectUpload(key, etag);
  if (!adopted) return undefined;
  try {
    await assertDeclaredContent(options, file, adopted);
  } catch (error) {
    await discardBlob(blobs, key, adopted.version);
    throw error;
  }
  return {
    blobVersion: adopted.version,
    etag: adopted.etag,
    sizeBytes: adopted.sizeBytes,
    contentType: toContentType(file.declared.contentType ?? undefined, file.filePath),
    lastModified: adopted.lastModified,
    checksumSha256: file.declared.checksumSha256,
  };
}

/**
 * The adopted bytes against the declared length and SHA-256. The signed upload URL asks the
 * store to refuse other bytes, but not every store checks a body against
 * `x-amz-checksum-sha256` (Ceph RGW 16 stores any bytes of the signed length: issue 25, item
 * 6). So the checksum the store reports must be the declared one, and when it reports none the
 * adopted version is read back and hashed (streamed, on the hash thread) before verify may
 * promise that checksum.
 */
async function assertDeclaredContent(
  options: { blobs: BlobStore; hashes: HashThread },
  file: FileRecord,
  adopted: AdoptedBlob,
): Promise<void> {
  const { sizeBytes, checksumSha256 } = file.declared;
  if (sizeBytes !== null && adopted.sizeBytes !== sizeBytes)
    throw contentMismatch(`length: ${adopted.sizeBytes} bytes, declared ${sizeBytes}`);
  if (checksumSha256 === null || adopted.checksumSha256 === checksumSha256) return;
  if (adopted.checksumSha256 !== undefined)
    throw contentMismatch(
      `checksum: the store holds bytes whose SHA-256 is ${adopted.checksumSha256}, declared ${checksumSha256}`,
    );
  const stored = await options.blobs.get(toStorageKey(file), adopted.version);
  if (!stored) throw unavailable('blob store', new Error(`version ${adopted.version} vanished once copied`));
  // The same check as the gateway's: it fails at the end, naming both digests, if they differ.
  const check = new ContentCheckStream({
    declared: { sizeBytes, contentType: null, checksumSha256 },
    limits: [],
    sha256: options.hashes.open(),
  });
  const body = Buffer.isBuffer(stored.body) ? Readable.from([stored.body]) : stored.body;
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(body, check, discard).catch((error: unknown) => {
    // A mismatch is the client's; a read that broke off is the store's.
    throw isAppError(error) ? error : unavailable('blob store', error);
  });
}
