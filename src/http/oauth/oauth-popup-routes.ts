import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import type { Services } from '../../services.ts';
import type { TypedApp } from '../route-context.ts';
import { oauthPagePolicy, renderSignedInPage, renderSignInErrorPage } from './oauth-pages.ts';

const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 32 }) });

/**
 * The two steps of a provider sign-in that run in the popup (issue 37), outside the /api/v1
 * barriers: a top-level navigation sends no headers, so the app id comes in the query
 * (`sb_app_id`, and `sb_app_secret` when the SDK sends it, checked then). Refusals answer a page
 * the user can read, in the popup, rather than JSON.
 */
export async function oauthPopupRoutes(app: TypedApp, services: Services): Promise<void> {
  app.get(
    '/oauth/:provider',
    {
      schema: {
        summary: 'Start a sign-in with a provider (a popup or a redirect)',
        tags: ['sign-in'],
        params: ProviderParams,
        querystring: Type.Object({
          state: Type.String({
            minLength: 8,
            maxLength: 512,
            description: "the app's own state; the token fetch names it",
          }),
          sb_app_id: Type.String({ maxLength: 128 }),
          sb_app_secret: Type.Optional(Type.String({ maxLength: 256 })),
          redirectTo: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) =>
      answerPage(reply, async () => {
        const { state, sb_app_id: appId, sb_app_secret: secret, redirectTo } = request.query;
        const project = await services.identity.getProjectByApp(appId, secret);
        const url = await services.oauthSignIn.start(project, {
          provider: request.params.provider,
          clientState: state,
          redirectTo,
          clientAddress: request.ip,
        });
        return reply.redirect(url.href, 302);
      }),
  );

  app.get(
    '/oauth/:provider/callback',
    { schema: { summary: "The provider's callback", tags: ['sign-in'], params: ProviderParams } },
    async (request, reply) =>
      answerPage(reply, async () => {
        // The URL the provider redirected to, on Coffer's public address (the code was issued for it).
        const url = new URL(request.url, services.publicUrl.value);
        const done = await services.oauthSignIn.callback(
          services.repositories.projects,
          request.params.provider,
          url,
        );
        if (done.redirectTo !== null) {
          const target = new URL(done.redirectTo);
          target.searchParams.set('state', done.clientState);
          return reply.redirect(target.href, 302);
        }
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', oauthPagePolicy)
          .send(renderSignedInPage());
      }),
  );
}

/** Runs a popup step; a refusal (an AppError) becomes a page with its status, anything else the usual 500. */
async function answerPage(reply: FastifyReply, step: () => Promise<FastifyReply>): Promise<FastifyReply> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return reply
      .code(error.statusCode)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', oauthPagePolicy)
      .send(renderSignInErrorPage(error.message));
  }
}
