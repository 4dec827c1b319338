import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { dataOffsetOf, type PlacedZipEntry, type ZipLayout } from './zip-layout.ts';
import { centralHeader, dataDescriptor, descriptorLength, endRecords, localHeader } from './zip-records.ts';

/** An inclusive range of bytes (the same shape as the blob stores' ByteRange). */
export type ByteRange = { start: number; end: number };

/** Where an archive's entries and bytes come from; entries are read a page at a time. */
export type ZipSource<Entry extends PlacedZipEntry = PlacedZipEntry> = {
  layout: ZipLayout;
  /** The entries in order, from the one whose local header, data or descriptor holds `offset`. */
  entriesFrom(offset: number): AsyncIterable<Entry>;
  /** The entries in order, from the one whose central header holds `centralOffset` (from the directory's start). */
  centralEntriesFrom(centralOffset: number): AsyncIterable<Entry>;
  /** An inclusive range of an entry's stored bytes. */
  openData(entry: Entry, range: ByteRange, signal: AbortSignal): Promise<Readable | Buffer>;
  /** A CRC still unknown where it is needed and not being computed: read the bytes whole once. */
  computeCrc(entry: Entry, signal: AbortSignal): Promise<number>;
  /** A CRC computed while the entry's bytes went out: kept for the central directory and later requests. */
  saveCrc(entry: Entry, crc: number): Promise<void>;
};

/**
 * The bytes of an inclusive range of the archive, generated as they are read: headers made per
 * entry, each entry's data streamed from its store, entries read a page at a time. Memory stays
 * a page of entries and up to 2 MiB of bytes read ahead (two of the local store's 1 MiB reads,
 * so the next read overlaps the socket's write) whatever the archive's size. Aborting `signal`
 * stops the store reads.
 */
export function openZipRange<Entry extends PlacedZipEntry>(
  source: ZipSource<Entry>,
  range: ByteRange,
  signal: AbortSignal,
): Readable {
  return Readable.from(zipBytes(source, range, signal), {
    objectMode: false,
    highWaterMark: 2 * 1024 * 1024,
  });
}

async function* zipBytes<Entry extends PlacedZipEntry>(
  source: ZipSource<Entry>,
  range: ByteRange,
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  const { layout } = source;
  const end = range.end + 1;
  /** The part of a record placed at `at` that falls inside the range. */
  const clip = (record: Buffer, at: number) =>
    record.subarray(Math.max(0, range.start - at), Math.min(record.length, end - at));
  const overlaps = (at: number, length: number) => at < end && at + length > range.start;

  if (range.start < layout.offset) {
    for await (const entry of source.entriesFrom(range.start)) {
      if (entry.localHeaderOffset >= end) return;
      const header = localHeader(entry);
      if (overlaps(entry.localHeaderOffset, header.length)) yield clip(header, entry.localHeaderOffset);
      const dataAt = dataOffsetOf(entry);
      let crc = entry.crc32;
      if (entry.size > 0 && overlaps(dataAt, entry.size)) {
        const first = Math.max(range.start, dataAt) - dataAt;
        const last = Math.min(end, dataAt + entry.size) - dataAt - 1;
        // The whole of an entry's bytes going out is the moment to learn its CRC for free.
        const learnsCrc = crc === null && first === 0 && last === entry.size - 1;
        let running = 0;
        // A client gone by now needs no more bytes opened for it.
        signal.throwIfAborted();
        const body = await source.openData(entry, { start: first, end: last }, signal);
        for await (const chunk of toChunks(body)) {
          if (learnsCrc) running = crc32(chunk, running);
          yield chunk;
        }
        if (learnsCrc) {
          crc = running >>> 0;
          await source.saveCrc(entry, crc);
        }
      }
      const descriptorAt = dataAt + entry.size;
      if (entry.hasDescriptor && overlaps(descriptorAt, descriptorLength(entry))) {
        crc ??= await source.computeCrc(entry, signal);
        yield clip(dataDescriptor(entry, crc), descriptorAt);
      }
    }
  }
  if (end > layout.offset && range.start < layout.offset + layout.size) {
    const from = Math.max(0, range.start - layout.offset);
    for await (const entry of source.centralEntriesFrom(from)) {
      const at = layout.offset + entry.centralOffset;
      if (at >= end) return;
      const crc = entry.crc32 ?? (await source.computeCrc(entry, signal));
      yield clip(centralHeader(entry, crc), at);
    }
  }
  const recordsAt = layout.offset + layout.size;
  if (end > recordsAt) yield clip(endRecords(layout), recordsAt);
}

/** A store's body as chunks: a Buffer it already held, or its stream. */
async function* toChunks(body: Readable | Buffer): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(body)) {
    yield body;
    return;
  }
  // for await destroys the stream when the loop ends early (an aborted download).
  for await (const chunk of body) yield chunk as Buffer;
}
