import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** What the file writer buffers before it makes the upload wait. */
const writeBatchBytes = 1024 * 1024;

/**
 * A stream into the file that gathers the chunks arriving while a write is under way into one
 * writev: a few large writes rather than a thread-pool round trip per socket chunk. The handle
 * stays the caller's (it syncs and closes it). Writes go from `position` on when one is given
 * (positional writes), else from the file's current position.
 */
export function toFileWriter(
  file: FileHandle,
  position?: number,
  /** Told, with a position, where the bytes written so far end. */
  onWritten?: (end: number) => void,
): Writable {
  let next = position;
  return new Writable({
    highWaterMark: writeBatchBytes,
    writev(entries, callback) {
      const chunks = entries.map((entry) => entry.chunk as Buffer);
      const at = next;
      if (next !== undefined) for (const chunk of chunks) next += chunk.length;
      const end = next;
      writeChunks(file, chunks, at).then(() => {
        if (end !== undefined) onWritten?.(end);
        callback();
      }, callback);
    },
  });
}

async function writeChunks(file: FileHandle, chunks: Buffer[], position?: number): Promise<void> {
  let { bytesWritten } = await file.writev(chunks, position);
  let at = position === undefined ? undefined : position + bytesWritten;
  // A short writev (a full disk, a signal): the rest goes chunk by chunk.
  for (const chunk of chunks) {
    if (bytesWritten >= chunk.length) {
      bytesWritten -= chunk.length;
      continue;
    }
    const rest = chunk.subarray(bytesWritten);
    await writeAll(file, rest, at);
    if (at !== undefined) at += rest.length;
    bytesWritten = 0;
  }
}

/** write() may write less than asked (a disk filling up): the rest goes in further writes. */
async function writeAll(file: FileHandle, chunk: Buffer, position?: number): Promise<void> {
  for (let offset = 0; offset < chunk.length; ) {
    const at = position === undefined ? null : position + offset;
    const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset, at);
    if (bytesWritten === 0) throw Object.assign(new Error('the disk took no byte'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}
