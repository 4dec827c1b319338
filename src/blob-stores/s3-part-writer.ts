import { addAbortSignal, type Readable } from 'node:stream';
import { UploadPartCommand } from '@aws-sdk/client-s3';
import type { AppendOptions } from '../domain/resumable/partial-blob-store.ts';
import { toBlobStoreError } from './s3-errors.ts';
import { parkBytes, readParkedBytes } from './s3-partial-tails.ts';
import { type S3PartialUpload, toPartBytes } from './s3-partial-upload.ts';

/**
 * Writes `body` at `offset` into the upload's parts and answers the offset up to which S3 holds
 * the bytes (PartialBlobStore.append). `offset` is one an earlier append answered (or 0), so
 * the parked bytes it points into exist. Memory: one part, never the body, never a local file.
 */
export async function appendParts(
  upload: S3PartialUpload,
  offset: number,
  body: Readable,
  { signal, onDurable }: AppendOptions = {},
): Promise<{ offset: number; failure?: unknown }> {
  if (signal) addAbortSignal(signal, body);
  const writer = new S3PartWriter(upload, offset, onDurable);
  // A store failure here kept nothing new: it is the answer.
  await writer.readParked();
  const arrival: { failure?: unknown } = {};
  try {
    for await (const chunk of untilFailure(body, arrival)) await writer.take(chunk);
    await writer.park();
  } catch (error) {
    const storeFailure = toBlobStoreError(error);
    // Parts S3 acknowledged before it failed stay kept, and the row may move past them.
    if (writer.keptEnd === offset && arrival.failure === undefined) throw storeFailure;
    return { offset: writer.keptEnd, failure: arrival.failure ?? storeFailure };
  }
  return arrival.failure === undefined
    ? { offset: writer.keptEnd }
    : { offset: writer.keptEnd, failure: arrival.failure };
}

/**
 * Cuts the body into the upload's fixed-size parts: part n holds bytes [(n-1)·P, n·P). Each
 * part goes to S3 as soon as it is full, and the body waits meanwhile (its backpressure), so
 * memory stays at one part per append.
 */
class S3PartWriter {
  /** The offset up to which S3 holds the bytes. */
  keptEnd: number;
  readonly #upload: S3PartialUpload;
  #partNumber: number;
  #part: Buffer;
  #filled = 0;
  /** The bytes at the front of #part that are already parked (read back from the tail). */
  #parked: number;
  readonly #onDurable: ((offset: number) => void) | undefined;

  constructor(upload: S3PartialUpload, offset: number, onDurable?: (offset: number) => void) {
    this.#upload = upload;
    this.#onDurable = onDurable;
    this.keptEnd = offset;
    this.#partNumber = Math.floor(offset / upload.partSizeBytes) + 1;
    this.#parked = offset % upload.partSizeBytes;
    this.#part = Buffer.allocUnsafe(toPartBytes(upload, this.#partNumber));
  }

  /** Puts the part's parked bytes in front of what the body brings. */
  async readParked(): Promise<void> {
    if (this.#parked === 0) return;
    await readParkedBytes(this.#upload, this.#partNumber, this.#part.subarray(0, this.#parked));
    this.#filled = this.#parked;
  }

  async take(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length; ) {
      const copied = chunk.copy(this.#part, this.#filled, at);
      if (copied === 0) throw new RangeError(`the body goes past the upload's ${this.#upload.length} bytes`);
      this.#filled += copied;
      at += copied;
      if (this.#filled === this.#part.length) await this.#sendPart();
    }
  }

  /** Parks what the part holds that is not parked yet (the last part was sent when it filled). */
  async park(): Promise<void> {
    if (this.#filled === this.#parked) return;
    await parkBytes(this.#upload, this.#partNumber, this.#part.subarray(0, this.#filled));
    this.#parked = this.#filled;
    this.keptEnd = (this.#partNumber - 1) * this.#upload.partSizeBytes + this.#filled;
  }

  async #sendPart(): Promise<void> {
    const { area, versionKey, uploadId } = this.#upload;
    await area.client.send(
      new UploadPartCommand({
        Bucket: area.bucket,
        Key: versionKey,
        UploadId: uploadId,
        PartNumber: this.#partNumber,
        Body: this.#part,
        ContentLength: this.#part.length,
      }),
    );
    this.keptEnd = (this.#partNumber - 1) * this.#upload.partSizeBytes + this.#part.length;
    // S3's flush boundary is the part (≥ 5 MiB): parking every MiB would rewrite the tail
    // object, up to a part's size, once per MiB.
    this.#onDurable?.(this.keptEnd);
    this.#partNumber += 1;
    this.#filled = 0;
    this.#parked = 0;
    // The last part may be shorter than the others.
    const nextBytes = toPartBytes(this.#upload, this.#partNumber);
    if (nextBytes < this.#part.length) this.#part = this.#part.subarray(0, nextBytes);
  }
}

/**
 * The body's chunks, ending rather than failing where the body fails (the client went away),
 * so what arrived is still kept; the failure is told with the answer.
 */
async function* untilFailure(body: Readable, arrival: { failure?: unknown }): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of body) yield chunk as Buffer;
  } catch (error) {
    arrival.failure = error;
  }
}
