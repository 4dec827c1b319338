import { Type } from '@sinclair/typebox';
import { assertActsForUser } from '../../../domain/identity/service-keys.ts';
import { authRequired } from '../../../errors/errors.ts';
import { toClientContext } from '../../client-context.ts';
import { readBearerToken } from '../../plugins/header-values.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
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
      // Barrier 3 runs in preValidation: a refresh token in the body is a credential too.
      config: { public: true },
      schema: {
        summary: 'Log out',
        description: 'Send the refreshToken in the body, or the access token as a bearer token.',
        tags: ['auth'],
        body: Type.Object({ refreshToken: Type.Optional(RefreshTokenField) }),
        response: { 204: { description: 'logged out' }, ...errorResponses(400, 401, 403) },
      },
      // Before validation (DESIGN §3): without either credential, 401 whatever the body is.
      preValidation: async (request) => {
        // A bearer logout may come with no body at all (the JSON parser makes it undefined).
        request.body ??= {};
        if (typeof (request.body as { refreshToken?: unknown }).refreshToken === 'string') return;
        // A service key has no session to end.
        if (request.serviceKeyPrincipal) assertActsForUser(request.serviceKeyPrincipal);
        const token = readBearerToken(request);
        if (token === undefined) throw authRequired();
        const caller = await services.identity.authenticate(request.project, token);
        request.user = caller.user;
        request.principal = caller.principal;
        request.sessionId = caller.sessionId;
      },
    },
    async (request, reply) => {
      const { refreshToken } = request.body;
      if (refreshToken !== undefined) {
        await services.identity.logoutByRefreshToken(request.project, refreshToken, toClientContext(request));
      } else {
        await services.identity.logout(toUserCaller(request));
      }
      return reply.code(204).send();
    },
  );
};
