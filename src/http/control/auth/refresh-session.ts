import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema, RefreshTokenField } from '../../wire/schemas.ts';
import { toLoginResult } from './to-login-result.ts';

/**
 * POST /api/v1/auth/refresh {refreshToken}: app credentials, no access token (it may have
 * expired). Answers a login result with a new refresh token; the one sent is spent.
 */
export const refreshSession: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/refresh',
    {
      config: { public: true },
      schema: {
        summary: 'Refresh a session',
        description:
          'Single use: the refreshToken sent is retired. Sending it again after the reuse grace revokes every token of its login.',
        tags: ['auth'],
        body: Type.Object({ refreshToken: RefreshTokenField }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) =>
      toLoginResult(await services.identity.refresh(request.project, request.body.refreshToken)),
  );
};
