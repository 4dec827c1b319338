import { Type } from '@sinclair/typebox';
import type { Principal } from '../../domain/access/decide-file-access.ts';
import type { Project } from '../../domain/identity/project-repository.ts';

/** The :projectId and :fileId of the console's file routes. */
export const fileParams = Type.Object({
  projectId: Type.String({ maxLength: 64 }),
  fileId: Type.String({ maxLength: 64 }),
});

/**
 * An operator acts on a project's files as one of its admins would: the file service's own
 * rules apply (an admin may read, share, unshare, revoke and delete every file of the project).
 */
export function operatorPrincipal(project: Project, operatorId: string): Principal {
  return { userId: `operator:${operatorId}`, projectId: project.id, role: project.adminRole, isAdmin: true };
}
