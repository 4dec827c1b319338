import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { PasskeyOptionsSchema } from './passkey-schemas.ts';

/** POST /api/v1/auth/passkey/options {email?} (issue 41): what navigator.credentials.get needs. */
export const requestPasskeySignInOptions: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/passkey/options',
    {
      config: { public: true },
      schema: {
        summary: 'Options to sign in with a passkey',
        tags: ['passkeys'],
        body: Type.Optional(Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) })),
        response: { 200: PasskeyOptionsSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const email = request.body?.email;
      return services.passkeySignIn.options(request.project, { email }, toClientContext(request));
    },
  );
};
