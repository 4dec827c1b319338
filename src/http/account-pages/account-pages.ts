import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { notFound } from '../../errors/errors.ts';
import { toClientContext } from '../client-context.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { accountPageScript, accountPageStyle } from './account-page-assets.ts';
import { isAccountPagePurpose, renderAccountPage } from './account-page-html.ts';

/** Nothing but this origin's script and style; never framed; the URL never leaves as a Referer. */
const pagePolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', pagePolicy)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

/**
 * Coffer's own pages for mail links (issue 23, item 5), for projects without accountLinkUrl:
 * GET /account/<purpose> shows a page and changes nothing (GET and HEAD never spend a token);
 * its form POSTs the token from the link's fragment to the same path. The token names its
 * project, so these need no app credentials: it is the credential, as a signed link is.
 */
export const accountPages: RouteRegistrar = (app, services) => {
  app.get('/account/assets/account-page.js', { schema: { hide: true } }, async (_request, reply) =>
    secure(reply).type('text/javascript; charset=utf-8').send(accountPageScript),
  );
  app.get('/account/assets/account-page.css', { schema: { hide: true } }, async (_request, reply) =>
    secure(reply).type('text/css; charset=utf-8').send(accountPageStyle),
  );
  app.get('/account/:purpose', { schema: { hide: true } }, async (request, reply) => {
    const { purpose } = request.params as { purpose: string };
    if (!isAccountPagePurpose(purpose)) throw notFound('account page');
    return secure(reply).type('text/html; charset=utf-8').send(renderAccountPage(purpose));
  });
  app.post(
    '/account/:purpose',
    {
      schema: {
        hide: true,
        body: Type.Object({
          token: Type.String({ minLength: 1, maxLength: 128 }),
          newPassword: Type.Optional(Type.String({ maxLength: 1024 })),
        }),
      },
    },
    async (request, reply) => {
      const { purpose } = request.params as { purpose: string };
      const { token, newPassword } = request.body as { token: string; newPassword?: string };
      const client = toClientContext(request);
      secure(reply);
      if (purpose === 'reset-password')
        await services.accountMail.confirmPasswordReset(
          undefined,
          { token, newPassword: newPassword ?? '' },
          client,
        );
      else if (purpose === 'verify-email')
        await services.accountMail.confirmEmailVerification(undefined, token, client);
      else if (purpose === 'change-email') await services.emailChange.confirmChange(undefined, token, client);
      else if (purpose === 'revert-email') await services.emailChange.revertChange(undefined, token, client);
      else throw notFound('account page');
      return reply.code(204).send();
    },
  );
};
