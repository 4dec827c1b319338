import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from '@sinclair/typebox';
import { userActor } from '../../../domain/events/user-events.ts';
import { toClientInfo } from '../../../domain/identity/session-types.ts';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { PasskeyResponseField, PasskeySchema } from './passkey-schemas.ts';

/** POST /api/v1/user/passkeys {response, name?} (issue 41): the new passkey; `user.passkey_added`. */
export const registerPasskey: RouteRegistrar = (app, services) => {
  app.post(
    '/user/passkeys',
    {
      config: { allowEnrolmentToken: true },
      schema: {
        summary: 'Register a passkey',
        tags: ['passkeys'],
        body: Type.Object({
          response: PasskeyResponseField,
          name: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 201: PasskeySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { user } = toUserCaller(request);
      const by = userActor(user.id, toClientInfo(toClientContext(request)));
      const input = { response: request.body.response as RegistrationResponseJSON, name: request.body.name };
      const passkey = await services.passkeyRegistration.register(request.project, user, input, by);
      return reply.code(201).send(passkey);
    },
  );
};
