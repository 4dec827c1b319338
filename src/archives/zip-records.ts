/**
 * The byte records of a ZIP file (PKWARE's APPNOTE.TXT 6.3.10), for stored entries (method 0)
 * whose sizes are known before any byte is sent. Every field is a pure function of the entry
 * and its place, so the same archive is the same bytes on every request: a Range resumes it.
 */

/** A 32-bit field that holds this value says "see the ZIP64 extra field" (APPNOTE 4.4.8). */
export const zip32Limit = 0xffffffff;
/** A 16-bit entry count that holds this value says "see the ZIP64 end record" (APPNOTE 4.4.21). */
export const zip16Limit = 0xffff;

/** Flag bit 3: CRC-32 and sizes follow the data in a data descriptor (APPNOTE 4.4.4). */
const flagDataDescriptor = 1 << 3;
/** Flag bit 11: the name is UTF-8 (APPNOTE 4.4.4, appendix D). */
const flagUtf8 = 1 << 11;
/** 2.0: stored entries; 4.5: ZIP64 (APPNOTE 4.4.3.2). */
const versionPlain = 20;
const versionZip64 = 45;
/** Made by: Unix (3) in the high byte, so the external attributes below are its mode bits. */
const madeByUnix = 3 << 8;
/** A regular file, rw-r--r-- (mode 0100644 in the high 16 bits, as Info-ZIP writes it). */
const regularFileAttributes = (0o100644 << 16) >>> 0;

/** One entry as the records need it: everything fixed when the archive is created. */
export type ZipEntryRecord = {
  /** Its path in the archive, UTF-8. */
  name: string;
  size: number;
  /** Known at creation, or null until the bytes have been read once. */
  crc32: number | null;
  /** Chosen at creation: true when the CRC was unknown then (flag bit 3, a data descriptor). */
  hasDescriptor: boolean;
  modifiedAt: Date;
  localHeaderOffset: number;
};

export const nameBytes = (name: string) => Buffer.byteLength(name, 'utf8');

/** The local header carries ZIP64 sizes only when the entry's own size needs them (APPNOTE 4.3.9.2). */
export const needsZip64Sizes = (size: number) => size >= zip32Limit;

export const localHeaderLength = (entry: { name: string; size: number }) =>
  30 + nameBytes(entry.name) + (needsZip64Sizes(entry.size) ? 20 : 0);

/** Signature, CRC and two sizes: 4-byte sizes, or 8-byte ones when the local header has ZIP64 (APPNOTE 4.3.9.1). */
export const descriptorLength = (entry: { size: number; hasDescriptor: boolean }) =>
  entry.hasDescriptor ? (needsZip64Sizes(entry.size) ? 24 : 16) : 0;

/** The central ZIP64 extra holds, in order, only the fields whose 32-bit slot is full (APPNOTE 4.5.3). */
function centralZip64Fields(entry: { size: number; localHeaderOffset: number }): bigint[] {
  const fields: bigint[] = [];
  if (needsZip64Sizes(entry.size)) fields.push(BigInt(entry.size), BigInt(entry.size));
  if (entry.localHeaderOffset >= zip32Limit) fields.push(BigInt(entry.localHeaderOffset));
  return fields;
}

export function centralHeaderLength(entry: { name: string; size: number; localHeaderOffset: number }) {
  const fields = centralZip64Fields(entry).length;
  return 46 + nameBytes(entry.name) + (fields > 0 ? 4 + 8 * fields : 0);
}

/** MS-DOS date and time (two-second steps, 1980–2107), from the UTC clock: the same everywhere. */
export function toDosDateTime(date: Date): { date: number; time: number } {
  const year = date.getUTCFullYear();
  if (year < 1980) return { date: (1 << 5) | 1, time: 0 };
  if (year > 2107) return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  return {
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
  };
}

const flagsOf = (entry: { hasDescriptor: boolean }) =>
  flagUtf8 | (entry.hasDescriptor ? flagDataDescriptor : 0);

export function localHeader(entry: ZipEntryRecord): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const zip64 = needsZip64Sizes(entry.size);
  const header = Buffer.alloc(localHeaderLength(entry));
  const { date, time } = toDosDateTime(entry.modifiedAt);
  // With a data descriptor the CRC and sizes here are zero (APPNOTE 4.4.4); readers take them
  // from the central directory, which always has them.
  const crc = entry.hasDescriptor ? 0 : (entry.crc32 ?? 0);
  const size = entry.hasDescriptor ? 0 : entry.size;
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(zip64 ? versionZip64 : versionPlain, 4);
  header.writeUInt16LE(flagsOf(entry), 6);
  header.writeUInt16LE(0, 8); // method: stored
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  header.writeUInt32LE(crc >>> 0, 14);
  header.writeUInt32LE(zip64 ? zip32Limit : size, 18);
  header.writeUInt32LE(zip64 ? zip32Limit : size, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(zip64 ? 20 : 0, 28);
  name.copy(header, 30);
  if (zip64) {
    const extra = 30 + name.length;
    header.writeUInt16LE(0x0001, extra);
    header.writeUInt16LE(16, extra + 2);
    header.writeBigUInt64LE(BigInt(size), extra + 4);
    header.writeBigUInt64LE(BigInt(size), extra + 12);
  }
  return header;
}

/** The data descriptor after an entry whose CRC was unknown at creation (APPNOTE 4.3.9). */
export function dataDescriptor(entry: { size: number }, crc32: number): Buffer {
  const zip64 = needsZip64Sizes(entry.size);
  const record = Buffer.alloc(zip64 ? 24 : 16);
  record.writeUInt32LE(0x08074b50, 0);
  record.writeUInt32LE(crc32 >>> 0, 4);
  if (zip64) {
    record.writeBigUInt64LE(BigInt(entry.size), 8);
    record.writeBigUInt64LE(BigInt(entry.size), 16);
  } else {
    record.writeUInt32LE(entry.size, 8);
    record.writeUInt32LE(entry.size, 12);
  }
  return record;
}

/** The central directory header: every CRC must be known by now. */
export function centralHeader(entry: ZipEntryRecord, crc32: number): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const fields = centralZip64Fields(entry);
  const zip64 = fields.length > 0;
  const header = Buffer.alloc(centralHeaderLength(entry));
  const { date, time } = toDosDateTime(entry.modifiedAt);
  const size = needsZip64Sizes(entry.size) ? zip32Limit : entry.size;
  const version = zip64 ? versionZip64 : versionPlain;
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(madeByUnix | version, 4);
  header.writeUInt16LE(version, 6);
  header.writeUInt16LE(flagsOf(entry), 8);
  header.writeUInt16LE(0, 10); // method: stored
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(crc32 >>> 0, 16);
  header.writeUInt32LE(size, 20);
  header.writeUInt32LE(size, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(zip64 ? 4 + 8 * fields.length : 0, 30);
  // comment length, disk number start, internal attributes: zero
  header.writeUInt32LE(regularFileAttributes, 38);
  header.writeUInt32LE(Math.min(entry.localHeaderOffset, zip32Limit), 42);
  name.copy(header, 46);
  if (zip64) {
    let at = 46 + name.length;
    header.writeUInt16LE(0x0001, at);
    header.writeUInt16LE(8 * fields.length, at + 2);
    at += 4;
    for (const field of fields) {
      header.writeBigUInt64LE(field, at);
      at += 8;
    }
  }
  return header;
}

/** Where the central directory lies and how many entries it lists. */
export type CentralDirectory = { entryCount: number; offset: number; size: number };

export const needsZip64End = (directory: CentralDirectory) =>
  directory.entryCount >= zip16Limit || directory.offset >= zip32Limit || directory.size >= zip32Limit;

export const endRecordsLength = (directory: CentralDirectory) =>
  needsZip64End(directory) ? 56 + 20 + 22 : 22;

/**
 * The end of the archive: the ZIP64 end record and its locator when a count or an offset does
 * not fit (APPNOTE 4.3.14, 4.3.15), then the classic end record (4.3.16), no comment.
 */
export function endRecords(directory: CentralDirectory): Buffer {
  const zip64 = needsZip64End(directory);
  const records = Buffer.alloc(endRecordsLength(directory));
  let at = 0;
  if (zip64) {
    const zip64EndOffset = directory.offset + directory.size;
    records.writeUInt32LE(0x06064b50, 0);
    records.writeBigUInt64LE(44n, 4); // size of the rest of this record
    records.writeUInt16LE(madeByUnix | versionZip64, 12);
    records.writeUInt16LE(versionZip64, 14);
    // disk numbers (16, 20): zero
    records.writeBigUInt64LE(BigInt(directory.entryCount), 24);
    records.writeBigUInt64LE(BigInt(directory.entryCount), 32);
    records.writeBigUInt64LE(BigInt(directory.size), 40);
    records.writeBigUInt64LE(BigInt(directory.offset), 48);
    records.writeUInt32LE(0x07064b50, 56);
    records.writeUInt32LE(0, 60); // the disk with the ZIP64 end record
    records.writeBigUInt64LE(BigInt(zip64EndOffset), 64);
    records.writeUInt32LE(1, 72); // disks in all
    at = 76;
  }
  const count = Math.min(directory.entryCount, zip16Limit);
  records.writeUInt32LE(0x06054b50, at);
  // disk numbers (at + 4, at + 6): zero
  records.writeUInt16LE(count, at + 8);
  records.writeUInt16LE(count, at + 10);
  records.writeUInt32LE(Math.min(directory.size, zip32Limit), at + 12);
  records.writeUInt32LE(Math.min(directory.offset, zip32Limit), at + 16);
  records.writeUInt16LE(0, at + 20); // comment length
  return records;
}
