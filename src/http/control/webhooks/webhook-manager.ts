import type { FastifyRequest } from 'fastify';
import { accessDenied, authRequired } from '../../../errors/errors.ts';
import type { Services } from '../../../services.ts';
import { readBearerToken } from '../../plugins/authenticate.ts';

/**
 * The project whose webhooks the caller manages: with the app secret (a backend), or as one of
 * the project's admins (bearer token). security: an origin alone, or a user's token, manages
 * nothing: an endpoint receives every event of the project.
 */
export async function toManagedProject(request: FastifyRequest, services: Services): Promise<string> {
  if (request.appSecretVerified) return request.project.id;
  const token = readBearerToken(request);
  if (token === undefined) throw authRequired('Webhooks are managed with the app secret or an admin token');
  const { principal } = await services.identity.authenticate(request.project, token);
  if (!principal.isAdmin)
    throw accessDenied("Webhooks are managed by the project's admins, or with the app secret");
  return request.project.id;
}
