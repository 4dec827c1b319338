import { accessDenied, userNotFound, validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { Actor, NewEvent } from '../events/event.ts';
import { operatorActor, toUserEvent, userActor } from '../events/user-events.ts';
import { newId } from '../ids.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import type { Project } from './project-repository.ts';
import type { RefreshTokenRepository } from './refresh-token-repository.ts';
import { assertRole } from './roles.ts';
import type { User, UserRepository } from './user-repository.ts';

const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export type NewAccount = { email: string; password: string; displayName?: string; role?: string };

/** Creates an account (role `user` unless an admin chooses); the password is stored as argon2id. */
export async function createAccount(
  users: UserRepository,
  project: Project,
  input: NewAccount,
  /** Who creates it; a user without an id is the new account itself (a signup). */
  by: Actor = operatorActor(null),
): Promise<User> {
  const email = toAccountEmail(input.email);
  assertPasswordPolicy(input.password);
  const role = assertRole(input.role ?? 'user');
  const id = newId();
  return users.create(
    {
      id,
      projectId: project.id,
      email,
      passwordHash: await hashPassword(input.password),
      role,
      displayName: input.displayName?.trim() || email.slice(0, email.indexOf('@')),
      enabled: true,
    },
    createdEvent({ id, projectId: project.id, role }, by),
  );
}

/** The address a person may give an account (signup, conversion): VALIDATION_FAILED otherwise. */
export function toAccountEmail(text: string): string {
  const email = text.trim();
  if (!isEmailAddress(email)) throw validationFailed('email is not a valid address');
  // The domains of generated keys: nobody may pass for an anonymous or provider-made account.
  for (const reserved of [anonymousEmailDomain, providerAccountDomain])
    if (email.toLowerCase().endsWith(`@${reserved}`))
      throw validationFailed(`email may not be at ${reserved}`);
  return email;
}

/** user.created; a signup's actor is the account it creates. */
function createdEvent(user: { id: string; projectId: string; role: string }, by: Actor): NewEvent {
  const actor = by.kind === 'user' && by.id === null ? { ...by, id: user.id } : by;
  return toUserEvent('user.created', actor, user, new Date());
}

/** The role of accounts made by POST /api/v1/auth/signup/anonymous. */
export const anonymousRole = 'anonymous';
/** RFC 2606 reserves `.invalid`: no mail is ever delivered there, and signup refuses it. */
export const anonymousEmailDomain = 'anonymous.invalid';
/**
 * security: not a PHC string, so verifyPassword never matches it: an anonymous account has no
 * password and can never log in, nor change its password (it keeps its tokens only).
 */
export const noPasswordHash = '!no-password';

/** The email of a provider sign-in that named no address: unique, and no mail goes there. */
export const providerAccountDomain = 'oauth.invalid';

/** Whether the account has a password (argon2id, a PHC string); anonymous and provider-made ones have none. */
export function hasPassword(user: { passwordHash: string }): boolean {
  return user.passwordHash.startsWith('$');
}

/**
 * An anonymous account: role `anonymous`, no password, and a generated unique key in the email
 * column (`<id>@anonymous.invalid`, lowercase) that no user knows or can sign up with.
 */
export async function createAnonymousAccount(
  users: UserRepository,
  project: Project,
  by: Actor = userActor(null),
): Promise<User> {
  const id = newId();
  const event = createdEvent({ id, projectId: project.id, role: anonymousRole }, by);
  return users.create(
    {
      id,
      projectId: project.id,
      email: `${id.toLowerCase()}@${anonymousEmailDomain}`,
      passwordHash: noPasswordHash,
      role: anonymousRole,
      displayName: anonymousRole,
      enabled: true,
    },
    event,
  );
}

export async function setAccountRole(
  users: UserRepository,
  project: Project,
  userId: string,
  role: string,
  by: Actor = operatorActor(null),
): Promise<User> {
  const checked = assertRole(role);
  const event = toUserEvent(
    'user.updated',
    by,
    { id: userId, projectId: project.id, role: checked },
    new Date(),
    {
      change: 'role',
    },
  );
  const user = await users.setRole(project.id, userId, checked, event);
  if (!user) throw userNotFound();
  return user;
}

/** `coffer user disable|enable` and the console: a disabled account is refused at once everywhere. */
export async function setAccountEnabled(
  users: UserRepository,
  project: Project,
  userId: string,
  enabled: boolean,
  by: Actor = operatorActor(null),
): Promise<User> {
  const event = toUserEvent('user.updated', by, { id: userId, projectId: project.id }, new Date(), {
    change: 'enabled',
    enabled,
  });
  const user = await users.setEnabled(project.id, userId, enabled, event);
  if (!user) throw userNotFound();
  return user;
}

/**
 * `coffer user reset-password`: a new password under the policy, and every refresh-token family
 * of the user revoked (its sessions end as their access tokens expire). Answers how many.
 */
export async function resetPassword(
  stores: { users: UserRepository; refreshTokens: RefreshTokenRepository },
  project: Project,
  input: { userId: string; password: string },
  by: Actor = operatorActor(null),
): Promise<number> {
  if (!(await stores.users.findById(project.id, input.userId))) throw userNotFound();
  assertPasswordPolicy(input.password);
  const event = toUserEvent(
    'user.password_changed',
    by,
    { id: input.userId, projectId: project.id },
    new Date(),
    {
      reset: true,
    },
  );
  const updated = await stores.users.setPasswordHash(
    project.id,
    input.userId,
    await hashPassword(input.password),
    event,
  );
  if (!updated) throw userNotFound();
  return stores.refreshTokens.deleteUserFamilies(project.id, input.userId);
}

/** Whether the text has an email address's form (what signup and user creation accept). */
export function isEmailAddress(text: string): boolean {
  return emailPattern.test(text.trim());
}

/** GET /api/v1/users?email=: the project's user with this email (case-insensitive), for its admins only. */
export async function getUserByEmail(
  users: UserRepository,
  principal: Principal,
  email: string,
): Promise<User> {
  if (!principal.isAdmin) throw accessDenied('Only an admin of the project may look users up');
  const user = isEmailAddress(email) ? await users.findByEmail(principal.projectId, email) : undefined;
  if (!user) throw userNotFound();
  return user;
}
