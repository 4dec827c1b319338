import type { BlobStore } from '../blobs/blob-store.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { discardBlob } from '../files/file-stores.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { ReleasedBlob } from './file-version.ts';

/**
 * Removes the bytes of versions a commit dropped (pruned, deleted), each unless something still
 * names them (the current version, another version restored from it, a copy, a trashed file):
 * asked after the commit, so a reference that committed first is seen. A failure leaves a stray
 * version for `coffer gc`, never an error.
 */
export async function releaseBlobs(
  stores: { files: Pick<FileRepository, 'isBlobReferenced'>; blobs: BlobStore },
  projectId: string,
  released: readonly ReleasedBlob[],
): Promise<void> {
  for (const { blobFileId, blobVersion } of released) {
    if (await stores.files.isBlobReferenced(blobFileId, blobVersion)) continue;
    await discardBlob(stores.blobs, toStorageKey({ projectId, id: blobFileId }), blobVersion);
  }
}
