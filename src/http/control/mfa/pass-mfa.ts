import { Type } from '@sinclair/typebox';
import { validationFailed } from '../../../errors/errors.ts';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { LoginResultSchema } from '../../wire/schemas.ts';
import { toLoginResult } from '../auth/to-login-result.ts';

/**
 * POST /api/v1/auth/mfa {mfaToken, code | recoveryCode} — app credentials, no token: the second
 * step after 401 MFA_REQUIRED; the login result of the sign-in that began it.
 */
export const passMfa: RouteRegistrar = (app, services) => {
  app.post(
    '/auth/mfa',
    {
      config: { public: true },
      schema: {
        summary: 'Finish a sign-in with a second factor',
        description:
          'After 401 MFA_REQUIRED: its mfaToken (5 minutes, single use) and a code of the authenticator app or a recovery code. A code is good once. A wrong one is INVALID_LOGIN, counted as a failed login; the fifth ends the mfaToken (401 INVALID_TOKEN: sign in again).',
        tags: ['auth'],
        body: Type.Object({
          mfaToken: Type.String({ maxLength: 128 }),
          code: Type.Optional(Type.String({ maxLength: 16 })),
          recoveryCode: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 200: LoginResultSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { mfaToken, code, recoveryCode } = request.body;
      if (code === undefined && recoveryCode === undefined)
        throw validationFailed('body: send code or recoveryCode');
      const client = toClientContext(request);
      const proof = { mfaToken, ...(code !== undefined ? { code } : { recoveryCode }) };
      const passed = await services.secondFactors.passSecondStep(request.project, proof, client);
      return toLoginResult(
        await services.identity.startSession(passed.user, request.project, client, passed.signIn),
      );
    },
  );
};
