import { Type } from '@sinclair/typebox';
import { userActor } from '../../../domain/events/user-events.ts';
import { toClientInfo } from '../../../domain/identity/session-types.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';

/** DELETE /api/v1/user/mfa/totp {code | recoveryCode} (bearer): 204; `user.mfa_disabled`. */
export const removeTotp: RouteRegistrar = (app, services) => {
  app.delete(
    '/user/mfa/totp',
    {
      schema: {
        summary: 'Remove the authenticator app (TOTP) and its recovery codes',
        description:
          'Needs a code of the app or a recovery code; a wrong one is INVALID_LOGIN, counted as a failed login.',
        tags: ['users'],
        body: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 16 })),
          recoveryCode: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 204: { description: 'removed' }, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const caller = toUserCaller(request);
      const client = toClientContext(request);
      const { code, recoveryCode } = request.body;
      if (code === undefined && recoveryCode === undefined)
        throw validationFailed('body: send code or recoveryCode');
      await services.reauthentication.confirm(caller, { code, recoveryCode }, client);
      await services.secondFactors.removeTotp(caller.user, userActor(caller.user.id, toClientInfo(client)));
      return reply.code(204).send();
    },
  );
};
