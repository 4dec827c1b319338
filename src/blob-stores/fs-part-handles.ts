import { fstatSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/** How long a part file stays open after its chunk: a tus client sends the next one at once. */
const idleCloseMs = 10_000;
/** Part files kept open at most: file descriptors are a budget the whole process shares. */
const maxKept = 64;

type Kept = { handle: FileHandle; lent: boolean; idle: NodeJS.Timeout | undefined };

/** A part file lent to one append, with the size it has now; giveBack() ends the loan. */
export type LentPart = {
  handle: FileHandle;
  sizeBytes: number;
  /** Keeps the file open for the upload's next chunk, or (`keep` false, after a failure) closes it. */
  giveBack(keep: boolean): Promise<void>;
};

/**
 * The part files of uploads in progress, kept open from one chunk to the next (a 5 MiB chunk
 * then costs one fstat instead of an open, an fstat and a close) and closed once idle, before
 * the file is published or removed, or after a failure. Only the upload's lease holder appends,
 * so a kept file is lent to one append at a time; a second append in this process (a takeover
 * while the first still unwinds) gets a file of its own, as every append did before.
 *
 * A kept handle names the file it was opened on, wherever that goes: another process may remove
 * it (abort, expiry), which fstat tells (no link left), and the file is opened again by its
 * path. Another process never publishes it behind a kept handle's back: complete() runs only
 * once the upload's row holds its whole length, after which no append is ever asked for.
 */
export class PartFileHandles {
  readonly #kept = new Map<string, Kept>();

  async borrow(path: string): Promise<LentPart> {
    const kept = this.#kept.get(path);
    if (kept && !kept.lent) {
      kept.lent = true;
      clearTimeout(kept.idle);
      const { size, nlink } = statOpenFile(kept.handle);
      if (nlink > 0) return this.#lend(path, kept.handle, size);
      // Removed behind this handle's back: what the path names now (likely nothing) decides.
      await this.#close(path, kept);
    }
    const handle = await open(path, 'r+');
    try {
      const { size } = await handle.stat();
      if (this.#kept.has(path) || !(await this.#makeRoom()))
        return { handle, sizeBytes: size, giveBack: () => handle.close() };
      this.#kept.set(path, { handle, lent: true, idle: undefined });
      return this.#lend(path, handle, size);
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  /** Closes the file kept for `path`, if any (before it is published or removed). */
  async forget(path: string): Promise<void> {
    const kept = this.#kept.get(path);
    if (!kept) return;
    this.#kept.delete(path);
    clearTimeout(kept.idle);
    // A file still lent is closed by its borrower's giveBack, which no longer finds it here.
    if (!kept.lent) await kept.handle.close().catch(() => {});
  }

  /** Closes every kept file (the store stops). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#kept.keys()].map((path) => this.forget(path)));
  }

  #lend(path: string, handle: FileHandle, sizeBytes: number): LentPart {
    const giveBack = async (keep: boolean) => {
      const kept = this.#kept.get(path);
      if (kept?.handle !== handle) return handle.close().catch(() => {});
      if (!keep) return this.#close(path, kept);
      kept.lent = false;
      kept.idle = setTimeout(() => void this.forget(path), idleCloseMs).unref();
      // Last used, last in line to be closed for room.
      this.#kept.delete(path);
      this.#kept.set(path, kept);
    };
    return { handle, sizeBytes, giveBack };
  }

  async #close(path: string, kept: Kept): Promise<void> {
    this.#kept.delete(path);
    clearTimeout(kept.idle);
    await kept.handle.close().catch(() => {});
  }

  /** Room for one more kept file: the least recently used idle one is closed if need be. */
  async #makeRoom(): Promise<boolean> {
    if (this.#kept.size < maxKept) return true;
    for (const [path, kept] of this.#kept) {
      if (kept.lent) continue;
      await this.#close(path, kept);
      return true;
    }
    return false;
  }
}

/**
 * fstat on the main thread: the file is open, so its inode is in memory and the call never
 * waits for the disk, while a trip through the thread pool costs each chunk a wake-up of two
 * threads (milliseconds on a busy machine). A handle that cannot be asked counts as removed.
 */
function statOpenFile(handle: FileHandle): { size: number; nlink: number } {
  try {
    return fstatSync(handle.fd);
  } catch {
    return { size: 0, nlink: 0 };
  }
}
