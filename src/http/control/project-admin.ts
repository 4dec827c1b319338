import type { FastifyRequest } from 'fastify';
import { accessDenied } from '../../errors/errors.ts';

/**
 * The project the caller administers (webhooks, the audit log): as one of its service keys or as
 * an admin user (bearer token; the barriers checked either). security: the app secret ships
 * inside apps, so it administers nothing (issue 35); neither does an origin or a user's token:
 * a webhook receives every event of the project, and the audit log names every actor's address.
 */
export function toManagedProject(request: FastifyRequest): string {
  if (!request.principal.isAdmin)
    throw accessDenied(
      "This is for the project's service keys and admins (an app secret administers nothing)",
    );
  return request.project.id;
}
