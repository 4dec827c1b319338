import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { PasskeyOptionsSchema } from './passkey-schemas.ts';

/** POST /api/v1/user/passkeys/options (issue 41): what navigator.credentials.create needs. */
export const requestPasskeyOptions: RouteRegistrar = (app, services) => {
  app.post(
    '/user/passkeys/options',
    {
      // Enrolment may be the step MFA_ENROLMENT_REQUIRED asks for (the MFA part's token).
      config: { allowEnrolmentToken: true },
      schema: {
        summary: 'Options to register a passkey',
        tags: ['passkeys'],
        response: { 200: PasskeyOptionsSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { user } = toUserCaller(request);
      return services.passkeyRegistration.options(request.project, user);
    },
  );
};
