import type { FileHandle } from 'node:fs/promises';
import { addAbortSignal, Readable } from 'node:stream';
import type { DirectBody, DirectDestination } from '../domain/blobs/blob-store.ts';

/** The size of each disk read: 1 MiB serves large downloads ~1.5x faster than 64 KiB. */
const readBytes = 1024 * 1024;
/** Reads a download has on the wire at once: one being sent while the next is read. */
const writesInFlight = 2;
/** Idle buffers kept for the next downloads (16 MiB at most); more are left to the collector. */
const poolLimit = 16;
const idleBuffers: Buffer[] = [];

/**
 * An inclusive byte range of a local file. As a Readable (exports, renditions, any consumer)
 * it reads into a fresh buffer per chunk, which the consumer then owns, as fs streams do.
 *
 * Written to a response with writeTo() (or into a part of one with writeInto(), as an archive's
 * entry) it reuses its buffers instead: each goes back to a pool once the socket's write
 * callback says the kernel has taken its bytes. Fresh 1 MiB
 * buffers per read made the garbage collector (and the page faults of new memory) half of a
 * large download's CPU (issue 26, item 4).
 */
export class FileRangeBody extends Readable implements DirectBody {
  readonly #handle: FileHandle;
  #position: number;
  /** One past the last byte to send. */
  readonly #end: number;
  #direct = false;

  constructor(handle: FileHandle, range: { start: number; end: number }, signal?: AbortSignal) {
    super({ highWaterMark: readBytes });
    this.#handle = handle;
    this.#position = range.start;
    this.#end = range.end + 1;
    // Not given to super(): a signal aborted already destroys the stream at once, and
    // _destroy must find the handle to close it (before this line it would throw, and the
    // handle would stay open until garbage collection).
    if (signal) addAbortSignal(signal, this);
  }

  override _read(): void {
    const length = Math.min(readBytes, this.#end - this.#position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    this.#readNext(Buffer.allocUnsafeSlow(length)).then(
      (chunk) => {
        if (!this.destroyed) this.push(chunk);
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#handle.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    );
  }

  /**
   * Sends the range into `destination` and ends it; the body is closed afterwards. Settles
   * once the last write is queued (or the destination closed early); rejects when the file
   * cannot be read, after which the destination must be destroyed. Only for a body that
   * nothing has read yet.
   */
  async writeTo(destination: DirectDestination): Promise<void> {
    this.#claimDirect('writeTo');
    try {
      if (await this.#pump(destination)) destination.end();
    } finally {
      this.destroy();
    }
  }

  /**
   * Sends the range into `destination` as one part of a larger body (an archive's entry): the
   * same pooled buffers and writes in flight as writeTo(), but the destination is neither
   * ended nor owned; the body is closed afterwards. Settles once its last write is queued, or
   * at once when the destination closes; rejects when the file cannot be read.
   */
  async writeInto(destination: DirectDestination): Promise<void> {
    this.#claimDirect('writeInto');
    try {
      const open = await this.#pump(destination);
      // Destroyed midway (its signal aborted) with the destination still open: the bytes that
      // follow in the destination would land where this range's should be.
      if (open && this.#position < this.#end)
        throw new Error('the body was closed before its range was sent');
    } finally {
      this.destroy();
    }
  }

  #claimDirect(method: string) {
    if (this.#direct || this.readableFlowing !== null || this.readableLength > 0)
      throw new Error(`${method}() on a body that is already being read`);
    this.#direct = true;
  }

  /**
   * Writes the range with pooled buffers, at most `writesInFlight` of its own on the wire.
   * Answers whether the destination is still open (false: it closed or was destroyed early).
   */
  async #pump(destination: DirectDestination): Promise<boolean> {
    let inFlight = 0;
    let closed = false;
    let wake: (() => void) | undefined;
    const wakeUp = () => {
      const waiting = wake;
      wake = undefined;
      waiting?.();
    };
    // A closed connection may never call back the writes it holds: stop waiting for them.
    const onClose = () => {
      closed = true;
      wakeUp();
    };
    destination.once('close', onClose);
    try {
      while (this.#position < this.#end && !closed && !destination.destroyed && !this.destroyed) {
        const buffer = idleBuffers.pop() ?? Buffer.allocUnsafeSlow(readBytes);
        const chunk = await this.#readNext(buffer);
        inFlight += 1;
        destination.write(chunk, (error) => {
          inFlight -= 1;
          // Back to the pool only once the socket is done with it; a failed write may not
          // be, and its buffer is left to the collector.
          if (!error && idleBuffers.length < poolLimit) idleBuffers.push(buffer);
          wakeUp();
        });
        while (inFlight >= writesInFlight && !closed && !destination.destroyed) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      }
      return !closed && !destination.destroyed;
    } finally {
      destination.off('close', onClose);
    }
  }

  /** Reads the next bytes of the range into `buffer`; answers the part that holds them. */
  async #readNext(buffer: Buffer): Promise<Buffer> {
    const length = Math.min(buffer.length, this.#end - this.#position);
    const { bytesRead } = await this.#handle.read(buffer, 0, length, this.#position);
    // The version is immutable: a short read means the file was cut (damaged or removed).
    if (bytesRead === 0) throw new Error('the stored file ended before its declared size');
    this.#position += bytesRead;
    return bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  }
}
