import type { ZipSource } from '../../archives/zip-stream.ts';
import { fileNotFound } from '../../errors/errors.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { computeStoredCrc32 } from '../files/content-crc.ts';
import type { FileRepository } from '../files/file-repository.ts';
import type { ArchiveEntry, ArchiveRecord, ArchiveRepository } from './archive-repository.ts';

/** Entries read from the database at a time: a page, whatever the archive's size. */
const entryPage = 256;

/**
 * An archive's bytes as the ZIP writer reads them: entries a page at a time from its stored
 * layout, each entry's bytes a ranged read of the version it was made of. A CRC learnt on the
 * way (an entry sent whole, or computed once where a Range needs it) is kept on the entry and
 * on the file's version (FileRepository.saveContentCrc32, for that exact version only).
 */
export function toZipSource(options: {
  archive: ArchiveRecord;
  archives: ArchiveRepository;
  files: Pick<FileRepository, 'saveContentCrc32'>;
  blobs: BlobStore;
}): ZipSource<ArchiveEntry> {
  const { archive, archives, files, blobs } = options;
  async function* pagesFrom(position: number): AsyncGenerator<ArchiveEntry> {
    for (let next = position; ; ) {
      const page = await archives.entriesFrom(archive.id, next, entryPage);
      yield* page;
      if (page.length < entryPage) return;
      next = page.at(-1)!.position + 1;
    }
  }
  const saveCrc = async (entry: ArchiveEntry, crc: number) => {
    await archives.saveEntryCrc(archive.id, entry.position, crc);
    await files.saveContentCrc32(entry.fileId, entry.blobVersion, crc);
  };
  return {
    layout: {
      entryCount: archive.fileCount,
      offset: archive.centralOffset,
      size: archive.centralSize,
      totalBytes: archive.archiveBytes,
    },
    entriesFrom: async function* (offset) {
      yield* pagesFrom(await archives.positionAtOffset(archive.id, offset));
    },
    centralEntriesFrom: async function* (offset) {
      yield* pagesFrom(await archives.positionAtCentralOffset(archive.id, offset));
    },
    async openData(entry, range, signal) {
      const { storageKey, blobVersion } = entry;
      const blob = await blobs.get(storageKey, blobVersion, { range, signal });
      // Checked stale-free before the first byte; a version gone since is a cut download.
      if (!blob) throw fileNotFound();
      return blob.body;
    },
    async computeCrc(entry, signal) {
      const { storageKey, blobVersion } = entry;
      const crc = await computeStoredCrc32(blobs, storageKey, blobVersion, signal);
      await saveCrc(entry, crc);
      return crc;
    },
    saveCrc,
  };
}
