import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/** Where an archive writes itself: an HTTP response, as far as the writer needs to know it. */
export type ZipDestination = {
  readonly destroyed: boolean;
  write(chunk: Buffer, callback: (error?: Error | null) => void): boolean;
  end(): void;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
};

/** One entry's stored bytes in the range; whoever sends them runs `crc` over them if `learnsCrc`. */
export type ZipDataPart = { body: Readable | Buffer; learnsCrc: boolean; crc: number };

/** A store's body that writes itself into a destination with buffers it reuses (file-range-body.ts). */
type PartWriter = Readable & { writeInto(destination: ZipDestination): Promise<void> };

/**
 * Bytes written and not yet taken by the socket before the writer waits: two of the local
 * store's 1 MiB reads, so the next read overlaps the socket's write, as a plain download's.
 */
const queuedBytesLimit = 2 * 1024 * 1024;

/**
 * Writes an archive's parts into `destination` and ends it. A local file's bytes go out in its
 * store's pooled buffers (writeInto), any other body's (S3 streams, cached small files) as
 * they come, waiting for the socket whenever more than `queuedBytesLimit` is queued. A client
 * gone stops the writing quietly (its signal has aborted the store reads); any other failure
 * rejects, after which the destination must be destroyed (the headers are gone).
 */
export async function writeZipParts(
  parts: AsyncIterable<Buffer | ZipDataPart>,
  destination: ZipDestination,
): Promise<void> {
  const sink = new QueuedSink(destination);
  try {
    // for await ends the parts' generator when the loop ends early: no more files opened.
    for await (const part of parts) {
      if (Buffer.isBuffer(part)) await sink.send(part);
      else await sendData(part, sink);
      if (sink.destroyed) return;
    }
    destination.end();
  } catch (error) {
    if (!sink.destroyed) throw error;
  } finally {
    sink.release();
  }
}

async function sendData(part: ZipDataPart, sink: QueuedSink) {
  const { body } = part;
  // A stream destroyed by its signal (the client gone) emits an error nobody else may be
  // listening for by then; one that matters also fails the writing below.
  let failure: unknown;
  if (!Buffer.isBuffer(body))
    body.on('error', (error) => {
      failure ??= error;
    });
  // Chunks are checksummed as they are written: before a pooled buffer can be reused.
  sink.checksum = part.learnsCrc ? part : undefined;
  try {
    if (sink.destroyed) return;
    if (Buffer.isBuffer(body)) {
      await sink.send(body);
    } else if (isPartWriter(body)) {
      await body.writeInto(sink);
      if (failure !== undefined) throw failure;
    } else {
      // for await destroys the stream when the loop ends early (the client gone).
      for await (const chunk of body) {
        if (sink.destroyed) break;
        await sink.send(chunk as Buffer);
      }
    }
  } finally {
    sink.checksum = undefined;
    if (!Buffer.isBuffer(body) && !body.destroyed) body.destroy();
  }
}

function isPartWriter(body: Readable): body is PartWriter {
  return typeof (body as Partial<PartWriter>).writeInto === 'function';
}

/**
 * The destination as the archive's parts see it: it counts the bytes queued on the socket
 * (until their write callbacks) and runs an entry's CRC over the chunks written for it.
 */
class QueuedSink implements ZipDestination {
  readonly #destination: ZipDestination;
  #queued = 0;
  #closed = false;
  #wake: (() => void) | undefined;
  /** The entry whose CRC is being learnt from the bytes written. */
  checksum: ZipDataPart | undefined;

  constructor(destination: ZipDestination) {
    this.#destination = destination;
    destination.once('close', this.#onClose);
  }

  get destroyed() {
    return this.#closed || this.#destination.destroyed;
  }

  write(chunk: Buffer, callback: (error?: Error | null) => void): boolean {
    if (this.checksum) this.checksum.crc = crc32(chunk, this.checksum.crc);
    this.#queued += chunk.length;
    return this.#destination.write(chunk, (error) => {
      this.#queued -= chunk.length;
      callback(error);
      this.#wakeUp();
    });
  }

  /** Writes `chunk` and waits while the socket holds more than the limit. */
  async send(chunk: Buffer): Promise<void> {
    this.write(chunk, ignore);
    // A closed connection may never call back the writes it holds: stop waiting for them.
    while (this.#queued > queuedBytesLimit && !this.destroyed) {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  end(): void {
    this.#destination.end();
  }

  once(event: 'close', listener: () => void): unknown {
    return this.#destination.once(event, listener);
  }

  off(event: 'close', listener: () => void): unknown {
    return this.#destination.off(event, listener);
  }

  release() {
    this.#destination.off('close', this.#onClose);
  }

  readonly #onClose = () => {
    this.#closed = true;
    this.#wakeUp();
  };

  #wakeUp() {
    const waiting = this.#wake;
    this.#wake = undefined;
    waiting?.();
  }
}

function ignore() {}
