import { Type } from '@sinclair/typebox';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';

/** POST /console/api/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/retry: due again at once. */
export const retryProjectWebhookDelivery: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/retry',
    {
      schema: {
        hide: true,
        params: Type.Object({
          projectId: Type.String({ maxLength: 64 }),
          webhookId: Type.String({ maxLength: 64 }),
          deliveryId: Type.String({ maxLength: 64 }),
        }),
      },
    },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const { webhookId, deliveryId } = request.params;
      await services.webhooks.retryDelivery(project.id, webhookId, deliveryId);
      return reply.code(202).send({ retried: true });
    },
  );
};
