import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';

/**
 * POST /api/v1/user/mfa/totp {password?} (bearer, or an enrolment token): a new TOTP secret,
 * pending until POST /user/mfa/totp/confirm; shown this once. A new call replaces a pending one.
 */
export const startTotp: RouteRegistrar = (app, services) => {
  app.post(
    '/user/mfa/totp',
    {
      config: { allowEnrolmentToken: true },
      schema: {
        summary: 'Start enrolling an authenticator app (TOTP)',
        description:
          'Needs the password, or a session that signed in within 5 minutes (403 REAUTHENTICATION_REQUIRED otherwise); an enrolment token (MFA_ENROLMENT_REQUIRED) is enough within 5 minutes of its issue (then with the password). The secret is pending until a code confirms it; a confirmed factor stays until then.',
        tags: ['users'],
        body: Type.Object({ password: Type.Optional(Type.String({ maxLength: 1024 })) }),
        response: {
          200: Type.Object({
            secret: Type.String({ description: 'base32, for typing into the app' }),
            otpauthUrl: Type.String({ description: 'otpauth://totp/… (Key Uri Format)' }),
            qrSvg: Type.String({ description: 'the otpauthUrl as a QR code, an SVG document' }),
          }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
      // The body is optional: a recent sign-in needs none (the JSON parser makes it undefined).
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const caller = toUserCaller(request);
      const client = toClientContext(request);
      await services.reauthentication.confirm(caller, { password: request.body.password }, client);
      const started = await services.secondFactors.startTotp(caller.user, request.project);
      // qrcode is loaded by the first enrolment, not by every worker at start (docs/decisions.md).
      const { default: QRCode } = await import('qrcode');
      const qrSvg = await QRCode.toString(started.otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M' });
      return { ...started, qrSvg };
    },
  );
};
