import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import type { FileRepository } from './file-repository.ts';

/** What every file service works on: the records, their bytes, and the time. */
export type FileStores = {
  files: FileRepository;
  blobs: BlobStore;
  clock: Clock;
};

/** Removes bytes no record needs; a failure leaves a stray version for `coffer gc`, never an error. */
export async function discardBlob(blobs: BlobStore, key: string, version: string): Promise<void> {
  await blobs.delete(key, version).catch(() => {});
}
