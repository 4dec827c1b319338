import { accessDenied, fileNotFound, fileNotVerified } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { FileRecord } from './file-record.ts';
import type { FileStores } from './file-stores.ts';
import { getAccessibleFile } from './get-accessible-file.ts';

export type FileHoldsOptions = Pick<FileStores, 'files' | 'clock'>;

/**
 * Legal holds (issue 38, item 4): a project admin (an admin user or a service key) freezes a
 * file, and no one may delete, purge, replace or move it until an admin lifts the hold. The
 * writes that a hold forbids re-check it in their own committing statement; this module only
 * sets and clears it.
 */
export class FileHolds {
  readonly #o: FileHoldsOptions;

  constructor(options: FileHoldsOptions) {
    this.#o = options;
  }

  /**
   * POST /api/v1/file/:id/hold {reason}: holds the file (holding a held file replaces its reason,
   * who and when). Only verified files: an unverified one has nothing to keep and is swept.
   */
  async hold(principal: Principal, fileId: string, reason: string): Promise<FileRecord> {
    const file = await this.#getAsAdmin(principal, fileId);
    if (!file.verified) throw fileNotVerified();
    const now = this.#o.clock.now();
    const event = toFileEvent('file.held', principal, file, now, { reason });
    const held = await this.#o.files.setHold(
      file.id,
      { reason, heldAt: now, heldBy: principal.userId },
      now,
      event,
    );
    if (!held) throw fileNotFound();
    return held;
  }

  /** DELETE /api/v1/file/:id/hold: lifts the hold; a file not held stays as it is (no event). */
  async release(principal: Principal, fileId: string): Promise<void> {
    const file = await this.#getAsAdmin(principal, fileId);
    if (!file.hold) return;
    const now = this.#o.clock.now();
    const event = toFileEvent('file.released', principal, file, now, { reason: file.hold.reason });
    // Undefined also when another admin released it first: the outcome asked for either way.
    await this.#o.files.setHold(file.id, null, now, event);
  }

  /** The file (404 first, as every file call), then the admin barrier: its creator is no exception. */
  async #getAsAdmin(principal: Principal, fileId: string): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'read');
    if (!principal.isAdmin) throw accessDenied('Only a project admin may hold a file or lift its hold');
    return file;
  }
}
