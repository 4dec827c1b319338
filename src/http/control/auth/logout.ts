import { Type } from '@sinclair/typebox';
import { authRequired } from '../../../errors/errors.ts';
import { readBearerToken } from '../../plugins/authenticate.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { RefreshTokenField } from '../../wire/schemas.ts';

/**
 * POST /api/v1/auth/logout: revokes the session's refresh tokens. The session is named by the
 * refresh token in the body, or else by the bearer token it was issued with; one of the two
 * is required (401 AUTH_REQUIRED). Idempotent: an unknown or revoked refresh token is 204 too.
 */
export const logout: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/logout',
    {
      // The barrier runs here: a refresh token in the body is a credential too.
      config: { public: true },
      schema: {
        summary: 'Log out',
        tags: ['auth'],
        body: Type.Optional(Type.Object({ refreshToken: Type.Optional(RefreshTokenField) })),
        response: { 204: { type: 'null', description: 'logged out' }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const refreshToken = request.body?.refreshToken;
      if (refreshToken !== undefined) {
        await services.identity.logoutByRefreshToken(request.project, refreshToken);
      } else {
        const token = readBearerToken(request);
        if (token === undefined) throw authRequired();
        await services.identity.logout(await services.identity.authenticate(request.project, token));
      }
      return reply.code(204).send();
    },
  );
};
