import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from '../auth/to-login-result.ts';
import { PasskeyResponseField } from './passkey-schemas.ts';

/** POST /api/v1/auth/passkey {response} (issue 41): the login result; two factors, so never MFA_REQUIRED. */
export const signInWithPasskey: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/passkey',
    {
      config: { public: true },
      schema: {
        summary: 'Sign in with a passkey',
        tags: ['passkeys'],
        body: Type.Object({ response: PasskeyResponseField }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const response = request.body.response as AuthenticationResponseJSON;
      const session = await services.passkeySignIn.signIn(
        request.project,
        response,
        toClientContext(request),
      );
      return toLoginResult(session);
    },
  );
};
