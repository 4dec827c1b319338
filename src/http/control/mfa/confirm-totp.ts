import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';

/**
 * POST /api/v1/user/mfa/totp/confirm {code} (bearer, or an enrolment token): the pending secret
 * becomes the factor; ten recovery codes, shown this once. `user.mfa_enabled`.
 */
export const confirmTotp: RouteRegistrar = (app, services) => {
  app.post(
    '/user/mfa/totp/confirm',
    {
      config: { allowEnrolmentToken: true },
      schema: {
        summary: 'Confirm the authenticator app with a first code',
        description:
          'A wrong code is INVALID_LOGIN and counted as a failed login. Answers ten single-use recovery codes, shown only now (new ones replace any earlier). After an enrolment token, sign in again.',
        tags: ['users'],
        body: Type.Object({ code: Type.String({ maxLength: 16 }) }),
        response: {
          200: Type.Object({ recoveryCodes: Type.Array(Type.String()) }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const { user } = toUserCaller(request);
      const recoveryCodes = await services.secondFactors.confirmTotp(
        user,
        request.body.code,
        toClientContext(request),
      );
      return { recoveryCodes };
    },
  );
};
