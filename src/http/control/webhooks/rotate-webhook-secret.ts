import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { toWebhookView, WebhookIdParams, WebhookWithSecretSchema } from './webhook-schemas.ts';

/** POST /api/v1/webhooks/:webhookId/rotate-secret: a new secret (shown only here); both sign for 24 h. */
export const rotateWebhookSecret: RouteRegistrar = (app, services) => {
  app.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        summary: 'A new signing secret; the old one keeps signing for 24 hours',
        tags: ['webhooks'],
        params: WebhookIdParams,
        response: { 200: WebhookWithSecretSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const projectId = toManagedProject(request);
      const webhook = await services.webhooks.rotateSecret(projectId, request.params.webhookId);
      return { ...toWebhookView(webhook), secret: webhook.secret };
    },
  );
};
