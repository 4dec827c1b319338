import type { HashDigest, HashThread } from '../files/hash-thread.ts';
import type { ResumableUpload } from './resumable-upload.ts';

/**
 * The digest of an upload's bytes from 0 to `offset`, as they arrived, and their CRC-32 (issue
 * 40; null when it cannot be known: a state saved before migration 0036). Both move on as the
 * chunk's bytes are hashed (chunk-stream.ts).
 */
export type RunningDigest = { offset: number; sha256: HashDigest; crc32: number | null };

/** Idle digests kept at most: each costs the hashing thread a little state, and nothing else. */
const maxKept = 256;

/**
 * The SHA-256 of each resumable upload (its checksum, and the disk store's ETag), fed chunk by
 * chunk as the bytes arrive, so the commit needs no second read of a large file. Kept in this
 * process's memory between chunks, and its state saved with the upload's offset (issue 35):
 * after a restart or on another node the digest goes on from the saved state. Only an upload
 * with no saved state at its offset (a chunk cut before its first checkpoint, a row from
 * before 0029) has its published bytes read back at the commit (commit-resumable.ts).
 */
export class RunningDigests {
  readonly #hashes: HashThread;
  readonly #byUpload = new Map<string, RunningDigest>();

  constructor(hashes: HashThread) {
    this.#hashes = hashes;
  }

  /**
   * The digest to continue at the upload's offset: the kept one if it ends there, else one
   * from the state saved with the offset, else a new one at 0 (or none).
   */
  take(
    upload: Pick<ResumableUpload, 'id' | 'offset' | 'sha256State' | 'crc32State'>,
  ): RunningDigest | undefined {
    const { id, offset, sha256State, crc32State } = upload;
    const kept = this.#byUpload.get(id);
    this.#byUpload.delete(id);
    if (kept && kept.offset === offset) return kept;
    if (kept) discard(kept);
    if (offset === 0) return { offset: 0, sha256: this.#hashes.openResumable(), crc32: 0 };
    if (sha256State) return { offset, sha256: this.#hashes.openResumable(sha256State), crc32: crc32State };
    return undefined;
  }

  /** Keeps a digest that now ends at `offset` for the next chunk. */
  keep(uploadId: string, digest: RunningDigest): void {
    digest.sha256.flush();
    this.#byUpload.set(uploadId, digest);
    if (this.#byUpload.size > maxKept) {
      const [oldest] = this.#byUpload.keys();
      if (oldest !== undefined) this.forget(oldest);
    }
  }

  forget(uploadId: string): void {
    const kept = this.#byUpload.get(uploadId);
    this.#byUpload.delete(uploadId);
    if (kept) discard(kept);
  }

  /** Drops every digest (the service stops): none keeps the hashing thread alive. */
  close(): void {
    for (const uploadId of [...this.#byUpload.keys()]) this.forget(uploadId);
  }
}

export function discard(digest: RunningDigest): void {
  digest.sha256.discard();
}
