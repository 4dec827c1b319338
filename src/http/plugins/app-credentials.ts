import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityService } from '../../domain/identity/identity-service.ts';
import type { ProjectRepository } from '../../domain/identity/project-repository.ts';
import { appCredentialsRequired, originNotAllowed } from '../../errors/errors.ts';
import { tusRequestHeaders, tusResponseHeaders } from '../data/resumable/tus-protocol.ts';
import { toErrorBody } from './error-handler.ts';

const allowedHeaders = `sb-app-id, sb-app-secret, authorization, content-type, accept, last-event-id, ${tusRequestHeaders}`;
const allowedMethods = 'GET, POST, PATCH, DELETE, OPTIONS';

/**
 * Barrier 2 (spec §5) for the control plane: `sb-app-id` with `sb-app-secret`, or `sb-app-id`
 * from an origin the project allows. Also answers CORS for browsers: a preflight carries no
 * app id, so it is answered for any origin some project allows, and the real call decides.
 */
export function installAppCredentials(
  app: FastifyInstance,
  options: { identity: IdentityService; projects: ProjectRepository },
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
    const project = await options.identity.getProjectByApp(appId, secret);
    const originAllowed = origin !== undefined && project.allowedOrigins.includes(origin);
    if (originAllowed)
      reply
        .header('access-control-allow-origin', origin)
        .header('vary', 'Origin')
        // A browser's tus client reads the created upload's URL (POST /api/v1/uploads).
        .header('access-control-expose-headers', tusResponseHeaders);
    if (secret === undefined) {
      if (origin === undefined) throw appCredentialsRequired();
      if (!originAllowed) throw originNotAllowed();
    }
    request.project = project;
    // A verified app secret: what may manage the project's webhooks without a token (issue 22).
    request.appSecretVerified = secret !== undefined;
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

/** A header's value when it was sent once and is not empty. */
export function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}
