import { toWebhookView } from '../control/webhooks/webhook-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** GET /console/api/projects/:projectId/webhooks: the project's endpoints, never their secrets. */
export const listProjectWebhooks: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/webhooks',
    { schema: { hide: true, params: projectParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      return { webhooks: (await services.webhooks.list(project.id)).map(toWebhookView) };
    },
  );
};
