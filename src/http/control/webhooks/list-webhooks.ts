import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { toWebhookView, WebhookSchema } from './webhook-schemas.ts';

/** GET /api/v1/webhooks: the project's endpoints, without their secrets. */
export const listWebhooks: RouteRegistrar = (app, services) => {
  app.get(
    '/webhooks',
    {
      schema: {
        summary: "List the project's webhook endpoints",
        tags: ['webhooks'],
        response: { 200: Type.Object({ webhooks: Type.Array(WebhookSchema) }), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const projectId = toManagedProject(request);
      return { webhooks: (await services.webhooks.list(projectId)).map(toWebhookView) };
    },
  );
};
