import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { PasskeySchema } from './passkey-schemas.ts';

/** GET /api/v1/user/passkeys (issue 41): the caller's passkeys, oldest first. */
export const listPasskeys: RouteRegistrar = (app, services) => {
  app.get(
    '/user/passkeys',
    {
      schema: {
        summary: "The caller's passkeys",
        tags: ['passkeys'],
        response: { 200: Type.Array(PasskeySchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { user } = toUserCaller(request);
      return services.passkeyRegistration.list(request.project.id, user.id);
    },
  );
};
