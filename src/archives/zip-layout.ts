import {
  type CentralDirectory,
  centralHeaderLength,
  descriptorLength,
  endRecordsLength,
  localHeaderLength,
  type ZipEntryRecord,
} from './zip-records.ts';

/** What an archive's creator knows of one file. */
export type ZipEntryInput = { name: string; size: number; crc32: number | null; modifiedAt: Date };

/** An entry with its place in the archive: every offset fixed before any byte is sent. */
export type PlacedZipEntry = ZipEntryRecord & {
  position: number;
  /** Where its central header starts, counted from the central directory's start. */
  centralOffset: number;
};

/** The whole archive's shape: where the central directory is, and the exact length. */
export type ZipLayout = CentralDirectory & { totalBytes: number };

/** Where an entry's data starts. */
export const dataOffsetOf = (entry: PlacedZipEntry) => entry.localHeaderOffset + localHeaderLength(entry);

/** Where the bytes after an entry (its next entry, or the central directory) start. */
export const entryEndOf = (entry: PlacedZipEntry) =>
  dataOffsetOf(entry) + entry.size + descriptorLength(entry);

/**
 * Places entries one after another, as a creator reads them (a page at a time): each entry's
 * local header offset and central header offset, then the central directory and the length.
 * An entry whose CRC is unknown gets a data descriptor; an empty one's CRC is 0, always known.
 */
export class ZipLayoutBuilder {
  #offset = 0;
  #centralSize = 0;
  #count = 0;

  place(input: ZipEntryInput): PlacedZipEntry {
    const crc32 = input.size === 0 ? 0 : input.crc32;
    const entry: PlacedZipEntry = {
      ...input,
      crc32,
      hasDescriptor: crc32 === null,
      position: this.#count,
      localHeaderOffset: this.#offset,
      centralOffset: this.#centralSize,
    };
    this.#offset = entryEndOf(entry);
    this.#centralSize += centralHeaderLength(entry);
    this.#count += 1;
    return entry;
  }

  finish(): ZipLayout {
    const directory = { entryCount: this.#count, offset: this.#offset, size: this.#centralSize };
    return { ...directory, totalBytes: directory.offset + directory.size + endRecordsLength(directory) };
  }
}
