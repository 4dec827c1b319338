import { Type } from '@sinclair/typebox';
import type { User } from '../../../domain/identity/user-repository.ts';
import { toClientContext } from '../../client-context.ts';
import { readBearerToken } from '../../plugins/header-values.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from '../auth/to-login-result.ts';

/**
 * GET /api/v1/oauth/:provider/token?state= (issue 37): the session of a finished provider
 * sign-in, once, within 5 minutes, as login answers it. The SDKs send whatever bearer token
 * they still hold: a valid one links the identity to its user; an expired or invalid one is
 * ignored, and the call signs in.
 */
export const oauthToken: RouteRegistrar = (app, services) => {
  app.get(
    '/oauth/:provider/token',
    {
      config: { public: true },
      schema: {
        summary: 'Fetch the session of a provider sign-in',
        tags: ['sign-in'],
        params: Type.Object({ provider: Type.String({ maxLength: 32 }) }),
        querystring: Type.Object({ state: Type.String({ minLength: 8, maxLength: 512 }) }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const token = readBearerToken(request);
      let caller: User | undefined;
      if (token !== undefined && request.serviceKeyPrincipal === undefined) {
        caller = await services.identity.authenticate(request.project, token).then(
          (found) => found.user,
          () => undefined,
        );
      }
      const session = await services.oauthSignIn.takeToken(
        request.project,
        { provider: request.params.provider, clientState: request.query.state, caller },
        toClientContext(request),
      );
      return toLoginResult(session);
    },
  );
};
