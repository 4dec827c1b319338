import { accessDenied } from '../../errors/errors.ts';
import type { Actor, EventData } from '../events/event.ts';
import { toUserEvent } from '../events/user-events.ts';
import { anonymousRole, toAccountEmail } from './accounts.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import type { Project } from './project-repository.ts';
import type { AnonymousConversion, User, UserRepository } from './user-repository.ts';

/** The role a guest becomes: the project's default for signups (DESIGN §3). */
export const memberRole = 'user';

/**
 * ACCESS_DENIED unless the account is a guest of a project that lets people sign up: closed
 * signup makes members only by an operator's hand, and a conversion makes one (issue 37, item 5).
 */
export function assertConvertible(project: Project, user: User): void {
  if (user.role !== anonymousRole) throw accessDenied('Only an anonymous account can be converted');
  if (project.settings.signup === 'closed') throw accessDenied('Signup is closed for this project');
}

/**
 * POST /api/v1/auth/signup/anonymous/convert: the guest takes an address and a password under
 * signup's rules and becomes a member (same id, so its files, shares and ACL entries stay its
 * own); `user.converted` is written with the change, and its sessions end with it.
 * EMAIL_TAKEN when another account has the address.
 */
export async function convertAnonymousAccount(
  users: UserRepository,
  project: Project,
  guest: { user: User; by: Actor; at: Date },
  input: { email: string; password: string; displayName?: string },
): Promise<User> {
  assertConvertible(project, guest.user);
  const email = toAccountEmail(input.email);
  assertPasswordPolicy(input.password);
  const change: AnonymousConversion = {
    email,
    passwordHash: await hashPassword(input.password),
    role: memberRole,
    displayName: input.displayName?.trim() || email.slice(0, email.indexOf('@')),
    emailVerifiedAt: null,
  };
  const event = toConvertedEvent(guest.user, guest.by, guest.at, { method: 'password' });
  const converted = await users.convertAnonymous(project.id, guest.user.id, change, event);
  // Another request converted it meanwhile: it is no guest any more.
  if (!converted) throw accessDenied('Only an anonymous account can be converted');
  return converted;
}

/** user.converted: the account's id and new role, how it was converted (and the provider). */
export function toConvertedEvent(user: User, by: Actor, at: Date, how: EventData) {
  return toUserEvent('user.converted', by, { id: user.id, projectId: user.projectId, role: memberRole }, at, {
    from: anonymousRole,
    ...how,
  });
}
