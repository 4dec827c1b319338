import { Type } from '@sinclair/typebox';
import { toClientContext } from '../../client-context.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { TokenField } from '../accounts/account-schemas.ts';

/** POST /api/v1/user/email/revert {token} (app credentials): 204, the old address back, every session ended. */
export const revertEmailChange: RouteRegistrar = (app, services) => {
  app.post(
    '/user/email/revert',
    {
      config: { public: true },
      schema: {
        summary: 'Undo an email change with the old address’s token',
        description:
          'Spends the token mailed to the old address when the change was confirmed (good for 7 days): the account gets that address back (verified), every session of the account ends, changes asked since are dropped, and `user.email_changed` is emitted with `reverted: true`. 409 EMAIL_TAKEN when another account has the old address by now. A wrong, spent or expired token is 400 INVALID_TOKEN.',
        tags: ['users'],
        body: Type.Object({ token: TokenField }),
        response: { 204: { description: 'reverted' }, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      await services.emailChange.revertChange(request.project, request.body.token, toClientContext(request));
      return reply.code(204).send();
    },
  );
};
