import { userNotFound } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { UserRepository } from '../identity/user-repository.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type Charge, type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';
import type { AclEntry } from './file-record.ts';

/** Whom a share names: a role (free-form), or a user of the project by id or by email. */
export type ShareTarget = AclEntry | { scope: 'email'; email: string };

/** What turning a share target into an ACL entry needs: the users, and the email-share limit. */
export type ShareTargetOptions = {
  /** Sharing with a user checks that the user exists in the project. */
  users: UserRepository;
  /**
   * Shares by email, per user (admins, who may look users up anyway, are not counted): each
   * answer tells whether the address has an account (docs/security.md, "Finding users").
   */
  emailShares: { buckets: TokenBuckets; perUser: BucketRule };
  clock: { now(): Date };
};

/**
 * The ACL entry a share target names, for a file's or a folder's share: a role as it is; a
 * user (by id or email) only if the project has one (USER_NOT_FOUND), a share by email counted
 * first (RATE_LIMITED once the caller has used its hour's shares by email).
 */
export async function toShareEntry(
  options: ShareTargetOptions,
  principal: Principal,
  target: ShareTarget,
): Promise<AclEntry> {
  if (target.scope === 'role') return target;
  if (target.scope === 'email' && !principal.isAdmin) await takeEmailShare(options, principal);
  const { users } = options;
  const user =
    target.scope === 'email'
      ? await users.findByEmail(principal.projectId, target.email)
      : await users.findById(principal.projectId, target.identifier);
  if (!user) throw userNotFound();
  return { scope: 'user', identifier: user.id };
}

async function takeEmailShare(options: ShareTargetOptions, principal: Principal): Promise<void> {
  const { buckets, perUser } = options.emailShares;
  const charge: Charge = {
    key: toBucketKey('email-share', principal.projectId, principal.userId),
    rule: perUser,
  };
  await buckets.takeAll([charge], options.clock.now());
}
