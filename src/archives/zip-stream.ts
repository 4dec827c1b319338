import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import { writeZipParts, type ZipDataPart, type ZipDestination } from './zip-direct.ts';
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
  /**
   * An inclusive range of an entry's stored bytes: a Buffer, a stream, or a stream that can
   * also write itself with buffers it reuses (a local file's, file-range-body.ts).
   */
  openData(entry: Entry, range: ByteRange, signal: AbortSignal): Promise<Readable | Buffer>;
  /** A CRC still unknown where it is needed and not being computed: read the bytes whole once. */
  computeCrc(entry: Entry, signal: AbortSignal): Promise<number>;
  /** A CRC computed while the entry's bytes went out: kept for the central directory and later requests. */
  saveCrc(entry: Entry, crc: number): Promise<void>;
};

/** An archive's range as a body: a Readable, which can also write itself into a response. */
export type ZipBody = Readable & { writeTo(destination: ZipDestination): Promise<void> };

/**
 * The bytes of an inclusive range of the archive, generated as they are read: headers made per
 * entry, each entry's data streamed from its store, entries read a page at a time. Memory stays
 * a page of entries and about 2 MiB of bytes read ahead or queued on the socket, whatever the
 * archive's size. Aborting `signal` stops the store reads.
 *
 * Read as a Readable, each entry's bytes pass through it as its store's stream gives them.
 * Written with writeTo() (zip-direct.ts), a local file's bytes go out in the store's pooled
 * buffers instead, as a plain download's do: fresh 1 MiB buffers per read, held in the
 * read-ahead long enough to be promoted, made the garbage collector half of the CPU.
 */
export function openZipRange<Entry extends PlacedZipEntry>(
  source: ZipSource<Entry>,
  range: ByteRange,
  signal: AbortSignal,
): ZipBody {
  const readable = Readable.from(zipBytes(source, range, signal), {
    objectMode: false,
    highWaterMark: 2 * 1024 * 1024,
  });
  const writeTo = async (destination: ZipDestination) => {
    if (readable.readableFlowing !== null || readable.readableDidRead)
      throw new Error('writeTo() on an archive body that is already being read');
    try {
      await writeZipParts(zipParts(source, range, signal), destination);
    } finally {
      readable.destroy();
    }
  };
  return Object.assign(readable, { writeTo });
}

/** The bytes of a range as the Readable sends them: each entry's data as its store's chunks. */
async function* zipBytes<Entry extends PlacedZipEntry>(
  source: ZipSource<Entry>,
  range: ByteRange,
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  for await (const part of zipParts(source, range, signal)) {
    if (Buffer.isBuffer(part)) {
      yield part;
      continue;
    }
    for await (const chunk of toChunks(part.body)) {
      if (part.learnsCrc) part.crc = crc32(chunk, part.crc);
      yield chunk;
    }
  }
}

/** Entries made between two turns of the event loop. */
const entriesPerTurn = 16;

/**
 * A range of the archive as its parts, in order: header records (clipped to the range) as
 * Buffers, and each entry's stored bytes in the range as a ZipDataPart its consumer sends.
 */
async function* zipParts<Entry extends PlacedZipEntry>(
  source: ZipSource<Entry>,
  range: ByteRange,
  signal: AbortSignal,
): AsyncGenerator<Buffer | ZipDataPart> {
  const { layout } = source;
  const end = range.end + 1;
  /** The part of a record placed at `at` that falls inside the range. */
  const clip = (record: Buffer, at: number) =>
    record.subarray(Math.max(0, range.start - at), Math.min(record.length, end - at));
  const overlaps = (at: number, length: number) => at < end && at + length > range.start;
  // Small files read from memory and a synchronous database (node:sqlite) never wait on I/O:
  // without a turn of the event loop now and then, the socket (corked by node:http until the
  // next tick) would send nothing until the read-ahead filled, and the first byte would wait
  // for megabytes of small entries. A turn every few entries lets each part out as it is made.
  // The first turn comes after the first entry: the headers and first bytes go out at once.
  let entriesSinceTurn = entriesPerTurn - 1;
  const takeTurn = async () => {
    entriesSinceTurn += 1;
    if (entriesSinceTurn >= entriesPerTurn) {
      entriesSinceTurn = 0;
      await nextTurn();
    }
  };

  if (range.start < layout.offset) {
    /** The inclusive range of an entry's data that falls inside the range, if any. */
    const dataRangeOf = (entry: Entry): ByteRange | undefined => {
      const dataAt = dataOffsetOf(entry);
      if (entry.size === 0 || !overlaps(dataAt, entry.size)) return undefined;
      return {
        start: Math.max(range.start, dataAt) - dataAt,
        end: Math.min(end, dataAt + entry.size) - dataAt - 1,
      };
    };
    // The next entry's bytes are asked for while this one's go out, so a store's wait for its
    // first byte (an S3 GET) overlaps the sending instead of following it. Bodies opened and
    // not handed out yet are closed if the archive stops first (the client gone, an error).
    const unsent = new Set<Promise<Readable | Buffer>>();
    const openDataOf = (entry: Entry | undefined) => {
      const dataRange = entry && entry.localHeaderOffset < end ? dataRangeOf(entry) : undefined;
      if (!entry || !dataRange) return undefined;
      // A client gone by now needs no more bytes opened for it.
      signal.throwIfAborted();
      const opening = source.openData(entry, dataRange, signal);
      unsent.add(opening);
      // One destroyed while it waits (its signal aborted) errors before anyone reads it.
      opening.then((body) => Buffer.isBuffer(body) || body.on('error', ignore), ignore);
      return opening;
    };
    const entries = source.entriesFrom(range.start)[Symbol.asyncIterator]();
    try {
      let step = await entries.next();
      let opening = openDataOf(step.done ? undefined : step.value);
      while (!step.done && step.value.localHeaderOffset < end) {
        const entry = step.value;
        const data = opening;
        step = await entries.next();
        opening = openDataOf(step.done ? undefined : step.value);
        const header = localHeader(entry);
        if (overlaps(entry.localHeaderOffset, header.length)) yield clip(header, entry.localHeaderOffset);
        let crc = entry.crc32;
        if (data) {
          unsent.delete(data);
          const dataRange = dataRangeOf(entry)!;
          // The whole of an entry's bytes going out is the moment to learn its CRC for free.
          const learnsCrc = crc === null && dataRange.start === 0 && dataRange.end === entry.size - 1;
          const part: ZipDataPart = { body: await data, learnsCrc, crc: 0 };
          // The consumer sends the bytes (and runs the CRC over them) before this resumes.
          yield part;
          if (learnsCrc) {
            crc = part.crc >>> 0;
            await source.saveCrc(entry, crc);
          }
        }
        const descriptorAt = dataOffsetOf(entry) + entry.size;
        if (entry.hasDescriptor && overlaps(descriptorAt, descriptorLength(entry))) {
          crc ??= await source.computeCrc(entry, signal);
          yield clip(dataDescriptor(entry, crc), descriptorAt);
        }
        await takeTurn();
      }
      if (!step.done) return;
    } finally {
      for (const opening of unsent) opening.then(closeBody, ignore);
      await entries.return?.();
    }
  }
  if (end > layout.offset && range.start < layout.offset + layout.size) {
    const from = Math.max(0, range.start - layout.offset);
    for await (const entry of source.centralEntriesFrom(from)) {
      const at = layout.offset + entry.centralOffset;
      if (at >= end) return;
      const crc = entry.crc32 ?? (await source.computeCrc(entry, signal));
      yield clip(centralHeader(entry, crc), at);
      await takeTurn();
    }
  }
  const recordsAt = layout.offset + layout.size;
  if (end > recordsAt) yield clip(endRecords(layout), recordsAt);
}

function closeBody(body: Readable | Buffer) {
  if (!Buffer.isBuffer(body)) body.destroy();
}

function ignore() {}

/** A store's body as chunks: a Buffer it already held, or its stream. */
async function* toChunks(body: Readable | Buffer): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(body)) {
    yield body;
    return;
  }
  // for await destroys the stream when the loop ends early (an aborted download).
  for await (const chunk of body) yield chunk as Buffer;
}
