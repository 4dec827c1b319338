import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';

/**
 * POST /api/v1/auth/password {oldPassword, newPassword} (bearer): 204. Every other session's
 * refresh tokens are revoked; the caller's session goes on.
 */
export const changePassword: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/password',
    {
      schema: {
        summary: 'Change the password',
        description:
          'A wrong oldPassword is INVALID_LOGIN and rate-limited as a failed login. The new password takes 8 to 1024 characters and may not be a common one.',
        tags: ['auth'],
        body: Type.Object({
          oldPassword: Type.String({ maxLength: 1024 }),
          newPassword: Type.String({
            maxLength: 1024,
            description: '8 to 1024 characters, not a common password',
          }),
        }),
        response: { 204: { description: 'changed' }, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      await services.identity.changePassword(toUserCaller(request), request.body, toClientContext(request));
      return reply.code(204).send();
    },
  );
};
