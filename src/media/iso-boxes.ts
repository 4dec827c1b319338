import { mediaUnreadable } from '../errors/errors.ts';

/** One ISO-BMFF box (ISO/IEC 14496-12 §4.2): its type, where its content starts, where it ends. */
export type IsoBox = { type: string; start: number; contentStart: number; end: number };

/**
 * The boxes laid end to end in `bytes[start, end)`. A box that claims to reach past `end` is
 * yielded with `end` beyond it (the caller decides: more bytes needed, or a lie); a size below
 * its own header is refused. Size 0 ("to the end of the file") reaches `end`.
 */
export function* readBoxes(bytes: Buffer, start: number, end: number): Generator<IsoBox> {
  let at = start;
  while (at + 8 <= end) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let headerBytes = 8;
    if (size === 1) {
      if (at + 16 > end)
        return yield { type, start: at, contentStart: at + 16, end: Number.POSITIVE_INFINITY };
      size = Number(bytes.readBigUInt64BE(at + 8));
      headerBytes = 16;
    } else if (size === 0) size = end - at;
    if (size < headerBytes) throw mediaUnreadable(`a ${printable(type)} box has an impossible size`);
    yield { type, start: at, contentStart: at + headerBytes, end: at + size };
    at += size;
  }
}

/** A box of a parent's content, which must lie within the parent. */
export function* readChildBoxes(
  bytes: Buffer,
  parent: { contentStart: number; end: number },
): Generator<IsoBox> {
  for (const box of readBoxes(bytes, parent.contentStart, parent.end)) {
    if (box.end > parent.end) throw mediaUnreadable(`a ${printable(box.type)} box overruns its parent`);
    yield box;
  }
}

/** Reads big-endian fields in order within one box, refusing any read past its end. */
export class BoxReader {
  at: number;
  readonly #bytes: Buffer;
  readonly #end: number;
  readonly #type: string;

  constructor(bytes: Buffer, box: IsoBox, skipBytes = 0) {
    this.#bytes = bytes;
    this.at = box.contentStart + skipBytes;
    this.#end = box.end;
    this.#type = box.type;
  }

  /** A full box's version and flags (§4.2.2). */
  versionAndFlags(): { version: number; flags: number } {
    const word = this.uint(4);
    return { version: word >>> 24, flags: word & 0xffffff };
  }

  /** An unsigned integer of 0, 1, 2, 4 or 8 bytes (8 only when it fits a number exactly). */
  uint(bytes: number): number {
    this.#need(bytes);
    const at = this.at;
    this.at += bytes;
    if (bytes === 0) return 0;
    if (bytes === 8) {
      const value = this.#bytes.readBigUInt64BE(at);
      if (value > BigInt(Number.MAX_SAFE_INTEGER))
        throw mediaUnreadable(`a ${printable(this.#type)} box holds a number too large`);
      return Number(value);
    }
    return this.#bytes.readUIntBE(at, bytes);
  }

  fourCc(): string {
    this.#need(4);
    this.at += 4;
    return this.#bytes.toString('latin1', this.at - 4, this.at);
  }

  /** Skips a NUL-terminated string (an `infe`'s name), without reading it. */
  skipString(): void {
    const nul = this.#bytes.indexOf(0, this.at);
    if (nul < 0 || nul >= this.#end)
      throw mediaUnreadable(`a ${printable(this.#type)} box ends inside a string`);
    this.at = nul + 1;
  }

  get remaining(): number {
    return this.#end - this.at;
  }

  #need(bytes: number): void {
    if (this.at + bytes > this.#end)
      throw mediaUnreadable(`a ${printable(this.#type)} box is shorter than its fields`);
  }
}

/** A box type as it may appear in an error: letters and digits only (the bytes are the file's). */
export function printable(type: string): string {
  return /^[\x20-\x7e]{4}$/.test(type) ? type.replace(/[^A-Za-z0-9 ]/g, '?') : '????';
}
