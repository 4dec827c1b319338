import { fileNotFound, validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { assertNotQuarantined } from '../admission/assert-not-quarantined.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { AclEntry, FileRecord } from './file-record.ts';
import type { FileStores } from './file-stores.ts';
import { getAccessibleFile } from './get-accessible-file.ts';
import { type ShareTarget, type ShareTargetOptions, toShareEntry } from './share-target.ts';

export type { ShareTarget } from './share-target.ts';

export type FileSharingOptions = Pick<FileStores, 'files' | 'clock'> & ShareTargetOptions;

/** Who may reach a file (spec 4.3, 4.4): its ACL, and the download links issued so far. */
export class FileSharing {
  readonly #o: FileSharingOptions;

  constructor(options: FileSharingOptions) {
    this.#o = options;
  }

  /**
   * Spec 4.3 / 4.4: appends an ACL entry; sharing twice changes nothing. A user must exist in
   * the file's project (USER_NOT_FOUND), looked up only once the caller may manage the file.
   */
  async share(principal: Principal, fileId: string, target: ShareTarget): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    // A quarantined file (issue 42) reaches no one new: released first, then shared.
    assertNotQuarantined(file);
    // The file's project is the principal's: getAccessibleFile crosses no project.
    const entry = await toShareEntry(this.#o, principal, target);
    const now = this.#o.clock.now();
    const event = toFileEvent('file.shared', principal, file, now, { entry });
    const updated = await this.#o.files.addAclEntry(file.id, entry, now, event);
    if (!updated) throw fileNotFound();
    return updated;
  }

  /** DELETE …/acl/user/:id and …/acl/role/:role; removing an absent entry changes nothing. */
  async unshare(principal: Principal, fileId: string, entry: AclEntry): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    if (entry.scope === 'user' && entry.identifier === file.creatorId) {
      throw validationFailed("the creator's own entry cannot be removed");
    }
    const now = this.#o.clock.now();
    const event = toFileEvent('file.unshared', principal, file, now, { entry });
    const updated = await this.#o.files.removeAclEntry(file.id, entry, now, event);
    if (!updated) throw fileNotFound();
    return updated;
  }

  /** POST /api/v1/file/:id/links/revoke: every download link issued so far stops (creator or admin). */
  async revokeLinks(principal: Principal, fileId: string): Promise<void> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    const event = toFileEvent('file.links_revoked', principal, file, this.#o.clock.now());
    if (!(await this.#o.files.revokeLinks(file.id, event))) throw fileNotFound();
  }
}
