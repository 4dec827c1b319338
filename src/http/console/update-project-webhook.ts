import { toWebhookView, WebhookInputSchema } from '../control/webhooks/webhook-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';
import { webhookParams } from './webhook-params.ts';

/** PATCH /console/api/projects/:projectId/webhooks/:webhookId {enabled?, url?, events?, description?}. */
export const updateProjectWebhook: RouteRegistrar = (app, services) => {
  app.patch(
    '/projects/:projectId/webhooks/:webhookId',
    { schema: { hide: true, params: webhookParams, body: WebhookInputSchema } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const webhook = await services.webhooks.update(project.id, request.params.webhookId, request.body);
      return { webhook: toWebhookView(webhook) };
    },
  );
};
