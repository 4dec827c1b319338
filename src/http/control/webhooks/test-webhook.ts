import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { DeliverySchema, toDeliveryView, WebhookIdParams } from './webhook-schemas.ts';

/** POST /api/v1/webhooks/:webhookId/test: sends a `webhook.test` event now and answers how it went. */
export const testWebhook: RouteRegistrar = (app, services) => {
  app.post(
    '/webhooks/:webhookId/test',
    {
      schema: {
        summary: 'Send a webhook.test event to the endpoint now',
        tags: ['webhooks'],
        params: WebhookIdParams,
        response: { 200: DeliverySchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const projectId = toManagedProject(request);
      return toDeliveryView(await services.webhooks.test(projectId, request.params.webhookId));
    },
  );
};
