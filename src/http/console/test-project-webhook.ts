import { toDeliveryView } from '../control/webhooks/webhook-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';
import { webhookParams } from './webhook-params.ts';

/** POST /console/api/projects/:projectId/webhooks/:webhookId/test: a webhook.test event now, and how it went. */
export const testProjectWebhook: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/webhooks/:webhookId/test',
    { schema: { hide: true, params: webhookParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      return { delivery: toDeliveryView(await services.webhooks.test(project.id, request.params.webhookId)) };
    },
  );
};
