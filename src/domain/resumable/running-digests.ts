import type { HashDigest, HashThread } from '../files/hash-thread.ts';

/** The digest of an upload's bytes from 0 to `offset`, as they arrived. */
export type RunningDigest = { offset: number; sha256: HashDigest };

/** Idle digests kept at most: each costs the hashing thread a little state, and nothing else. */
const maxKept = 256;

/**
 * The SHA-256 of each resumable upload (its checksum, and the disk store's ETag), fed chunk by
 * chunk as the bytes arrive, so the commit needs no second read of a large file. Memory of this process only: after a restart,
 * on another node, or once a chunk was cut off or refused, the chain is broken and the commit
 * reads the published bytes back instead (commit-resumable.ts).
 */
export class RunningDigests {
  readonly #hashes: HashThread;
  readonly #byUpload = new Map<string, RunningDigest>();

  constructor(hashes: HashThread) {
    this.#hashes = hashes;
  }

  /** The digest to continue at `offset`: the kept one if it ends there, else a new one at 0 (or none). */
  take(uploadId: string, offset: number): RunningDigest | undefined {
    const kept = this.#byUpload.get(uploadId);
    this.#byUpload.delete(uploadId);
    if (kept && kept.offset === offset) return kept;
    if (kept) discard(kept);
    if (offset !== 0) return undefined;
    return { offset: 0, sha256: this.#hashes.open() };
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
