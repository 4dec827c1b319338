import { userNotFound, validationFailed } from '../../errors/errors.ts';
import { newId } from '../ids.ts';
import type { Project, User, UserRepository } from '../ports.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';

const rolePattern = /^[a-z0-9][a-z0-9_.:-]{0,63}$/;
const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export type NewAccount = { email: string; password: string; displayName?: string; role?: string };

/** Creates an account (role `user` unless an admin chooses); the password is stored as argon2id. */
export async function createAccount(
  users: UserRepository,
  project: Project,
  input: NewAccount,
): Promise<User> {
  const email = input.email.trim();
  if (!emailPattern.test(email)) throw validationFailed('email is not a valid address');
  assertPasswordPolicy(input.password);
  const role = assertRole(input.role ?? 'user');
  return users.create({
    id: newId(),
    projectId: project.id,
    email,
    passwordHash: await hashPassword(input.password),
    role,
    displayName: input.displayName?.trim() || email.slice(0, email.indexOf('@')),
    enabled: true,
  });
}

export async function setAccountRole(
  users: UserRepository,
  project: Project,
  userId: string,
  role: string,
): Promise<User> {
  const user = await users.setRole(project.id, userId, assertRole(role));
  if (!user) throw userNotFound();
  return user;
}

/** Roles are free-form lowercase names (DESIGN §3). */
export function assertRole(role: string): string {
  if (!rolePattern.test(role)) throw validationFailed('role must be a lowercase name: a-z, 0-9, _ . : -');
  return role;
}
