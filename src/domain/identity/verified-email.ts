import { emailNotVerified } from '../../errors/errors.ts';
import type { Project } from './project-repository.ts';
import type { User } from './user-repository.ts';

/** EMAIL_NOT_VERIFIED where the project signs in verified addresses only (requireVerifiedEmail). */
export function assertVerifiedWhereRequired(project: Project, user: User): void {
  if (project.settings.requireVerifiedEmail && user.emailVerifiedAt === null) throw emailNotVerified();
}
