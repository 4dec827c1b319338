import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { toWebhookView, WebhookIdParams, WebhookInputSchema, WebhookSchema } from './webhook-schemas.ts';

/** PATCH /api/v1/webhooks/:webhookId {url?, events?, description?, enabled?}: enabling clears why it was disabled. */
export const updateWebhook: RouteRegistrar = (app, services) => {
  app.patch(
    '/webhooks/:webhookId',
    {
      schema: {
        summary: 'Change a webhook endpoint (enabled: true takes a disabled one back)',
        tags: ['webhooks'],
        params: WebhookIdParams,
        body: WebhookInputSchema,
        response: { 200: WebhookSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const projectId = toManagedProject(request);
      return toWebhookView(await services.webhooks.update(projectId, request.params.webhookId, request.body));
    },
  );
};
