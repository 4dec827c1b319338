import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { toWebhookView, WebhookIdParams, WebhookSchema } from './webhook-schemas.ts';

/** GET /api/v1/webhooks/:webhookId: one endpoint, without its secret. */
export const getWebhook: RouteRegistrar = (app, services) => {
  app.get(
    '/webhooks/:webhookId',
    {
      schema: {
        summary: 'Get a webhook endpoint',
        tags: ['webhooks'],
        params: WebhookIdParams,
        response: { 200: WebhookSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const projectId = toManagedProject(request);
      return toWebhookView(await services.webhooks.get(projectId, request.params.webhookId));
    },
  );
};
