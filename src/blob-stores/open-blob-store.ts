/**
 * Picks the blob store (and where resumable uploads' bytes wait) from the storage URL. The S3
 * store and the AWS SDK it stands on (about 0.3 s of CPU to load) are loaded only by a process
 * whose storage URL names S3: a server, worker or command on disk never pays for them.
 */
import path from 'node:path';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type { BlobSweeper } from '../domain/blobs/blob-sweeper.ts';
import type { HashThread } from '../domain/files/hash-thread.ts';
import type { PartialBlobStore } from '../domain/resumable/partial-blob-store.ts';
import { FsBlobStore } from './fs-blob-store.ts';
import { FsPartialStore } from './fs-partial-store.ts';
import { MemoryBlobStore } from './memory-blob-store.ts';

export async function openBlobStore(
  storageUrl: string,
  hashes?: HashThread,
): Promise<BlobStore & BlobSweeper> {
  // memory: keeps blobs in this process only: tests and benchmarks, never production.
  if (storageUrl === 'memory:') return new MemoryBlobStore();
  if (storageUrl.startsWith('file:'))
    return new FsBlobStore({ rootDir: path.resolve(storageUrl.slice('file:'.length)), hashes });
  if (storageUrl.startsWith('s3:')) {
    const { parseS3StorageUrl, S3BlobStore } = await import('./s3-blob-store.ts');
    return new S3BlobStore(parseS3StorageUrl(storageUrl));
  }
  throw new Error(
    `COFFER_STORAGE_URL: unsupported store ${JSON.stringify(storageUrl.split(':')[0])} (use file: or s3:)`,
  );
}

/** Where resumable uploads' bytes wait, beside the blob store's versions (none in memory). */
export async function openPartialStore(
  blobs: BlobStore,
  hashes: HashThread,
): Promise<PartialBlobStore | undefined> {
  if (blobs instanceof FsBlobStore) return new FsPartialStore({ rootDir: blobs.rootDir, hashes });
  if (blobs instanceof MemoryBlobStore) return undefined;
  const [{ S3BlobStore }, { S3PartialStore }] = await Promise.all([
    import('./s3-blob-store.ts'),
    import('./s3-partial-store.ts'),
  ]);
  if (blobs instanceof S3BlobStore) return new S3PartialStore(blobs.area);
  return undefined;
}
