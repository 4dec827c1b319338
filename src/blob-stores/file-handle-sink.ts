import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Bytes buffered while a write is in flight; they go out together in the next writev. */
const HIGH_WATER_MARK = 1024 * 1024;

/**
 * A writable stream into an open file handle (which the caller syncs and closes). Chunks that
 * arrive while a write is in flight are gathered into one writev, as fs.WriteStream does:
 * writing each 64 KiB socket chunk on its own and waiting for it left the upload's thread
 * idle half of the time. Every write's length is checked: a short write is continued, and a
 * write that takes no byte fails with ENOSPC (a disk filling up).
 */
export class FileHandleSink extends Writable {
  readonly #file: FileHandle;

  constructor(file: FileHandle) {
    super({ highWaterMark: HIGH_WATER_MARK });
    this.#file = file;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    writeAll(this.#file, [chunk]).then(() => callback(), callback);
  }

  override _writev(
    chunks: Array<{ chunk: Buffer; encoding: BufferEncoding }>,
    callback: (error?: Error | null) => void,
  ): void {
    writeAll(
      this.#file,
      chunks.map(({ chunk }) => chunk),
    ).then(() => callback(), callback);
  }
}

/** writev() may write less than asked (a disk filling up): the rest goes in further writes. */
async function writeAll(file: FileHandle, buffers: Buffer[]): Promise<void> {
  let pending = buffers.filter((buffer) => buffer.length > 0);
  while (pending.length > 0) {
    const { bytesWritten } = await file.writev(pending);
    if (bytesWritten === 0) throw Object.assign(new Error('the disk took no byte'), { code: 'ENOSPC' });
    pending = skipBytes(pending, bytesWritten);
  }
}

/** The buffers that remain after the first `count` bytes were written. */
function skipBytes(buffers: Buffer[], count: number): Buffer[] {
  let left = count;
  let index = 0;
  while (index < buffers.length && left >= (buffers[index]?.length ?? 0)) {
    left -= buffers[index]?.length ?? 0;
    index++;
  }
  const rest = buffers.slice(index);
  if (left > 0 && rest[0]) rest[0] = rest[0].subarray(left);
  return rest;
}
