import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from './to-login-result.ts';

/**
 * POST /api/v1/auth/signup/anonymous/convert {email, password} (bearer of a guest; the Selfbits
 * SDKs' call): the guest becomes a member, same userId, answered like a login with a new
 * session (the guest's sessions end). 403 ACCESS_DENIED for a caller who is no guest or where
 * signup is closed; 409 EMAIL_TAKEN.
 */
export const convertAnonymous: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/signup/anonymous/convert',
    {
      schema: {
        summary: 'Turn an anonymous account into a member (same userId; its files and shares stay)',
        description:
          'Signup rules apply: the password policy, EMAIL_TAKEN, and ACCESS_DENIED where signup is closed. The anonymous sessions end; the answer carries the new one.',
        tags: ['auth'],
        body: Type.Object({
          email: Type.String({ maxLength: 320 }),
          password: Type.String({ maxLength: 1024, description: 'at least 8 characters' }),
          displayName: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const session = await services.identity.convertAnonymous(
        request.project,
        toUserCaller(request),
        request.body,
        toClientContext(request),
      );
      return toLoginResult(session);
    },
  );
};
