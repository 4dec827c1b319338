import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import {
  entryEndOf,
  type PlacedZipEntry,
  type ZipLayout,
  ZipLayoutBuilder,
} from '../../src/archives/zip-layout.ts';
import { centralHeaderLength } from '../../src/archives/zip-records.ts';
import { openZipRange, type ZipSource } from '../../src/archives/zip-stream.ts';
import type { ByteRange } from '../../src/domain/blobs/blob-store.ts';

/** A synthetic file: its bytes are a repeated pattern, made on demand (never held whole). */
export type SyntheticFile = {
  name: string;
  size: number;
  seed: number;
  crcKnown: boolean;
  modifiedAt?: Date;
};

const patternLength = 1 << 20;
const patterns = new Map<number, Buffer>();
function patternOf(seed: number): Buffer {
  let pattern = patterns.get(seed);
  if (!pattern) {
    pattern = Buffer.alloc(patternLength);
    let state = (seed * 2654435761) >>> 0 || 1;
    for (let at = 0; at < patternLength; at += 1) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      pattern[at] = state & 0xff;
    }
    patterns.set(seed, pattern);
  }
  return pattern;
}

/** The bytes of an inclusive range of a synthetic file, a chunk at a time. */
export function syntheticBytes(file: { seed: number }, range: ByteRange): Readable {
  const pattern = patternOf(file.seed);
  return Readable.from(
    (function* () {
      for (let at = range.start; at <= range.end; ) {
        const from = at % patternLength;
        const length = Math.min(patternLength - from, range.end - at + 1);
        yield pattern.subarray(from, from + length);
        at += length;
      }
    })(),
  );
}

/** SHA-256 and CRC-32 of a synthetic file, streamed. */
export async function digestOf(file: {
  seed: number;
  size: number;
}): Promise<{ sha256: string; crc32: number }> {
  const hash = createHash('sha256');
  let crc = 0;
  if (file.size > 0)
    for await (const chunk of syntheticBytes(file, { start: 0, end: file.size - 1 })) {
      hash.update(chunk);
      crc = crc32(chunk, crc);
    }
  return { sha256: hash.digest('hex'), crc32: crc >>> 0 };
}

/**
 * An archive of synthetic files held in memory as the database would hold it: placed entries,
 * found by offset with a binary search, CRCs learnt while streaming kept for later requests.
 */
export function memoryZipSource(files: SyntheticFile[], crcs: Map<string, number>) {
  const builder = new ZipLayoutBuilder();
  const entries = files.map((file) =>
    builder.place({
      name: file.name,
      size: file.size,
      crc32: file.crcKnown ? (crcs.get(file.name) ?? null) : null,
      modifiedAt: file.modifiedAt ?? new Date('2026-11-29T12:34:56Z'),
    }),
  );
  const layout: ZipLayout = builder.finish();
  const bySeed = new Map(files.map((file, index) => [index, file.seed]));
  const computed: string[] = [];
  const saved: string[] = [];
  const firstWhere = (test: (entry: PlacedZipEntry) => boolean) => {
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (test(entries[middle]!)) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const source: ZipSource = {
    layout,
    async *entriesFrom(offset) {
      for (let at = firstWhere((entry) => entryEndOf(entry) > offset); at < entries.length; at += 1)
        yield { ...entries[at]! };
    },
    async *centralEntriesFrom(offset) {
      const start = firstWhere((entry) => entry.centralOffset + centralHeaderLength(entry) > offset);
      for (let at = start; at < entries.length; at += 1) yield { ...entries[at]! };
    },
    async openData(entry, range) {
      return syntheticBytes({ seed: bySeed.get(entry.position)! }, range);
    },
    async computeCrc(entry) {
      computed.push(entry.name);
      const crc = (await digestOf({ seed: bySeed.get(entry.position)!, size: entry.size })).crc32;
      entries[entry.position]!.crc32 = crc;
      return crc;
    },
    async saveCrc(entry, crc) {
      saved.push(entry.name);
      entries[entry.position]!.crc32 = crc;
    },
  };
  return { source, layout, entries, computed, saved };
}

/** Writes an inclusive range of the archive (all of it by default) to a file. */
export async function writeZipTo(source: ZipSource, path: string, range?: ByteRange): Promise<void> {
  const whole = { start: 0, end: source.layout.totalBytes - 1 };
  await pipeline(openZipRange(source, range ?? whole, new AbortController().signal), createWriteStream(path));
}
