import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { WebhookIdParams } from './webhook-schemas.ts';

/** DELETE /api/v1/webhooks/:webhookId: the endpoint and its deliveries go. */
export const deleteWebhook: RouteRegistrar = (app, services) => {
  app.delete(
    '/webhooks/:webhookId',
    {
      schema: {
        summary: 'Remove a webhook endpoint and its deliveries',
        tags: ['webhooks'],
        params: WebhookIdParams,
        response: errorResponses(401, 403, 404),
      },
    },
    async (request, reply) => {
      const projectId = toManagedProject(request);
      await services.webhooks.delete(projectId, request.params.webhookId);
      return reply.code(204).send();
    },
  );
};
