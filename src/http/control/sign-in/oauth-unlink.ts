import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';

/** DELETE /api/v1/oauth/:provider/unlink (issue 37): 204; 409 LAST_SIGN_IN_METHOD when it is the user's only way in. */
export const oauthUnlink: RouteRegistrar = (app, services) => {
  app.delete(
    '/oauth/:provider/unlink',
    {
      schema: {
        summary: 'Unlink a sign-in provider from the caller',
        tags: ['sign-in'],
        params: Type.Object({ provider: Type.String({ maxLength: 32 }) }),
        response: { 204: { description: 'unlinked (or was not linked)' }, ...errorResponses(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { user } = toUserCaller(request);
      await services.oauthSignIn.unlink(
        request.project,
        user,
        request.params.provider,
        toClientContext(request),
      );
      return reply.code(204).send();
    },
  );
};
