import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';
import { webhookParams } from './webhook-params.ts';

/** DELETE /console/api/projects/:projectId/webhooks/:webhookId: the endpoint and its deliveries. */
export const deleteProjectWebhook: RouteRegistrar = (app, services) => {
  app.delete(
    '/projects/:projectId/webhooks/:webhookId',
    { schema: { hide: true, params: webhookParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      await services.webhooks.delete(project.id, request.params.webhookId);
      return reply.code(204).send();
    },
  );
};
