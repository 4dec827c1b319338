import { validationFailed } from '../../errors/errors.ts';

const rolePattern = /^[a-z0-9][a-z0-9_.:-]{0,63}$/;

/** Roles are free-form lowercase names (DESIGN §3). */
export function assertRole(role: string): string {
  if (!rolePattern.test(role)) throw validationFailed('role must be a lowercase name: a-z, 0-9, _ . : -');
  return role;
}
