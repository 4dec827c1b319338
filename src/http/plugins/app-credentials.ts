import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityService } from '../../domain/identity/identity-service.ts';
import type { ProjectRepository } from '../../domain/identity/project-repository.ts';
import { isServiceKeyToken, type ServiceKeys } from '../../domain/identity/service-keys.ts';
import { appCredentialsRequired, originNotAllowed } from '../../errors/errors.ts';
import { tusRequestHeaders, tusResponseHeaders } from '../data/resumable/tus-protocol.ts';
import { toErrorBody } from './error-handler.ts';
import { readBearerToken, single } from './header-values.ts';

const allowedHeaders = `sb-app-id, sb-app-secret, authorization, content-type, accept, last-event-id, ${tusRequestHeaders}`;
const allowedMethods = 'GET, POST, PATCH, DELETE, OPTIONS';

/**
 * Barrier 2 (spec §5) for the control plane: `sb-app-id` with `sb-app-secret`, with a service key
 * (`Authorization: Bearer csk_…`, from a server only), or from an origin the project allows. Also answers CORS for browsers: a preflight carries no
 * app id, so it is answered for any origin some project allows, and the real call decides.
 */
export function installAppCredentials(
  app: FastifyInstance,
  options: { identity: IdentityService; projects: ProjectRepository; serviceKeys: ServiceKeys },
): void {
  app.options('/*', { schema: { hide: true } }, async (request, reply) =>
    answerPreflight(request, reply, options.projects),
  );

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return;
    const appId = single(request.headers['sb-app-id']);
    if (!appId) throw appCredentialsRequired();
    const secret = single(request.headers['sb-app-secret']);
    const origin = single(request.headers.origin);
    const bearer = readBearerToken(request);
    const serviceKey = bearer !== undefined && isServiceKeyToken(bearer) ? bearer : undefined;
    // security: a service key is a server credential (issue 35); a browser, which sends an
    // Origin with every cross-origin call, must never hold one, so a key that arrives with an
    // Origin is refused rather than trusted (allowed origin or not).
    if (serviceKey !== undefined && origin !== undefined)
      throw originNotAllowed(
        'A service key is a server credential: it is refused from a browser (a request with an Origin)',
      );
    const project = await options.identity.getProjectByApp(appId, secret);
    const originAllowed = origin !== undefined && project.allowedOrigins.includes(origin);
    if (originAllowed)
      reply
        .header('access-control-allow-origin', origin)
        .header('vary', 'Origin')
        // A browser's tus client reads the created upload's URL (POST /api/v1/uploads).
        .header('access-control-expose-headers', tusResponseHeaders);
    if (secret === undefined && serviceKey === undefined) {
      if (origin === undefined) throw appCredentialsRequired();
      if (!originAllowed) throw originNotAllowed();
    }
    request.project = project;
    // The key stands in for the app secret here and for the token behind (authenticate.ts):
    // checked now, so that no route, public or not, is reached with an unknown key.
    request.serviceKeyPrincipal =
      serviceKey === undefined ? undefined : await options.serviceKeys.authenticate(project, serviceKey);
  });
}

/** A CORS preflight of the control plane: answered for any origin some project allows. */
export async function answerPreflight(
  request: FastifyRequest,
  reply: FastifyReply,
  projects: ProjectRepository,
) {
  const origin = single(request.headers.origin);
  if (!origin || !(await projects.isOriginAllowedAnywhere(origin))) {
    const error = originNotAllowed();
    return reply.code(error.statusCode).send(toErrorBody(error));
  }
  return reply
    .code(204)
    .header('access-control-allow-origin', origin)
    .header('vary', 'Origin')
    .header('access-control-allow-methods', allowedMethods)
    .header('access-control-allow-headers', allowedHeaders)
    .header('access-control-max-age', '600')
    .send();
}
