import type { FastifyRequest } from 'fastify';
import { accessDenied, authRequired } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';
import { readBearerToken } from '../plugins/authenticate.ts';

/**
 * The project the caller administers (webhooks, the audit log): with the app secret (a
 * backend), or as one of the project's admins (bearer token). security: an origin alone, or a
 * user's token, administers nothing: a webhook receives every event of the project, and the
 * audit log names every actor's address.
 */
export async function toManagedProject(request: FastifyRequest, services: Services): Promise<string> {
  if (request.appSecretVerified) return request.project.id;
  const token = readBearerToken(request);
  if (token === undefined) throw authRequired('This needs the app secret or a project admin token');
  const { principal } = await services.identity.authenticate(request.project, token);
  if (!principal.isAdmin)
    throw accessDenied("This is for the project's admins, or a backend with the app secret");
  return request.project.id;
}
