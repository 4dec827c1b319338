import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';

/** POST /api/v1/webhooks/:webhookId/deliveries/:deliveryId/retry: the delivery is attempted again at once. */
export const retryWebhookDelivery: RouteRegistrar = (app, services) => {
  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/retry',
    {
      schema: {
        summary: 'Attempt a delivery again now (same webhook-id, a fresh timestamp and signature)',
        tags: ['webhooks'],
        params: Type.Object({
          webhookId: Type.String({ maxLength: 64 }),
          deliveryId: Type.String({ maxLength: 64 }),
        }),
        response: errorResponses(401, 403, 404),
      },
    },
    async (request, reply) => {
      const projectId = toManagedProject(request);
      await services.webhooks.retryDelivery(projectId, request.params.webhookId, request.params.deliveryId);
      return reply.code(202).send();
    },
  );
};
