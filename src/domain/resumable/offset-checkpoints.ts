import { uploadLocked } from '../../errors/errors.ts';
import type { ChunkStream } from './chunk-stream.ts';
import type { ResumableUploadRepository } from './resumable-upload-repository.ts';

export type OffsetCheckpointsOptions = {
  uploads: ResumableUploadRepository;
  uploadId: string;
  owner: string;
  /** The row's offset when the PATCH began. */
  offset: number;
  expiresAt: Date;
  stream: ChunkStream;
  /** Whether the chunk has a running SHA-256: without one the row moves with no state. */
  hashed: boolean;
  /** The lease was lost (another writer moved the row): the chunk must stop. */
  onLost: (error: Error) => void;
};

/**
 * Moves an upload's row along while a PATCH still streams (issue 35, item 4): an offset the
 * store made durable becomes the row's offset, with the running SHA-256's state and CRC-32 there, in one
 * update, so a kill -9 mid-PATCH keeps what reached the store and the state agrees with the
 * offset. The state is saved at checkpoints only (chunk-stream.ts), so the row moves to the
 * last checkpoint at or below the durable offset. One update at a time; a database failure
 * leaves the row where it was (the next checkpoint, or the PATCH's end, moves it).
 */
export class OffsetCheckpoints {
  /** The row's offset as this PATCH last moved it. */
  rowOffset: number;
  readonly #o: OffsetCheckpointsOptions;
  #durable = 0;
  #updating: Promise<void> | undefined;

  constructor(options: OffsetCheckpointsOptions) {
    this.#o = options;
    this.rowOffset = options.offset;
  }

  /** The store made the bytes up to `offset` durable. */
  durable = (offset: number): void => {
    this.#durable = Math.max(this.#durable, offset);
    this.#updating ??= this.#update().finally(() => {
      this.#updating = undefined;
    });
  };

  /** Waits for the update under way; answers the row's offset. */
  async settle(): Promise<number> {
    while (this.#updating) await this.#updating;
    return this.rowOffset;
  }

  async #update(): Promise<void> {
    for (;;) {
      const target = this.#nextTarget();
      if (!target) return;
      const sha256State = target.state && (await target.state.catch(() => undefined));
      // A state the hashing thread could not save: the row does not move without one.
      if (this.#o.hashed && !sha256State?.length) return;
      const move = {
        from: this.rowOffset,
        to: target.offset,
        expiresAt: this.#o.expiresAt,
        sha256State: sha256State ?? null,
        crc32State: target.crc32 ?? null,
      };
      const moved = await this.#o.uploads
        .advance(this.#o.uploadId, this.#o.owner, move)
        .catch(() => 'failed');
      if (moved === 'failed') return;
      if (!moved) {
        this.#o.onLost(uploadLocked(1));
        return;
      }
      this.rowOffset = target.offset;
    }
  }

  #nextTarget(): { offset: number; state?: Promise<Uint8Array>; crc32?: number | null } | undefined {
    if (!this.#o.hashed) return this.#durable > this.rowOffset ? { offset: this.#durable } : undefined;
    return this.#o.stream.takeCheckpoints(this.rowOffset, this.#durable).at(-1);
  }
}
