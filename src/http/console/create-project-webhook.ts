import { toWebhookView, WebhookInputSchema } from '../control/webhooks/webhook-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/**
 * POST /console/api/projects/:projectId/webhooks {url, events, description}: as the project's
 * admin would; the signing secret is in this answer only.
 */
export const createProjectWebhook: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/webhooks',
    { schema: { hide: true, params: projectParams, body: WebhookInputSchema } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const webhook = await services.webhooks.create(project.id, request.body);
      return reply.code(201).send({ webhook: toWebhookView(webhook), secret: webhook.secret });
    },
  );
};
