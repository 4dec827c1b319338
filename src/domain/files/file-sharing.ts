import { fileNotFound, userNotFound, validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { UserRepository } from '../identity/user-repository.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type Charge, type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';
import type { AclEntry, FileRecord } from './file-record.ts';
import type { FileStores } from './file-stores.ts';
import { getAccessibleFile } from './get-accessible-file.ts';

/** Whom a share names: a role (free-form), or a user of the file's project by id or by email. */
export type ShareTarget = AclEntry | { scope: 'email'; email: string };

export type FileSharingOptions = Pick<FileStores, 'files' | 'clock'> & {
  /** Sharing with a user checks that the user exists in the project. */
  users: UserRepository;
  /**
   * Shares by email, per user (admins, who may look users up anyway, are not counted): each
   * answer tells whether the address has an account (docs/security.md, "Finding users").
   */
  emailShares: { buckets: TokenBuckets; perUser: BucketRule };
};

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
    if (target.scope === 'email' && !principal.isAdmin) await this.#takeEmailShare(principal);
    const entry = await this.#toAclEntry(file.projectId, target);
    const now = this.#o.clock.now();
    const event = toFileEvent('file.shared', principal, file, now, { entry });
    const updated = await this.#o.files.addAclEntry(file.id, entry, now, event);
    if (!updated) throw fileNotFound();
    return updated;
  }

  /** RATE_LIMITED once the user has asked for its hour's shares by email. */
  async #takeEmailShare(principal: Principal): Promise<void> {
    const { buckets, perUser } = this.#o.emailShares;
    const charge: Charge = {
      key: toBucketKey('email-share', principal.projectId, principal.userId),
      rule: perUser,
    };
    await buckets.takeAll([charge], this.#o.clock.now());
  }

  async #toAclEntry(projectId: string, target: ShareTarget): Promise<AclEntry> {
    const { users } = this.#o;
    if (target.scope === 'role') return target;
    const user =
      target.scope === 'email'
        ? await users.findByEmail(projectId, target.email)
        : await users.findById(projectId, target.identifier);
    if (!user) throw userNotFound();
    return { scope: 'user', identifier: user.id };
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
