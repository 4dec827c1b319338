import { Type } from '@sinclair/typebox';
import { toDeliveryView } from '../control/webhooks/webhook-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { findProject } from './project-view.ts';
import { webhookParams } from './webhook-params.ts';

const pageSize = 50;

/** GET /console/api/projects/:projectId/webhooks/:webhookId/deliveries?cursor=: newest first. */
export const listProjectWebhookDeliveries: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/webhooks/:webhookId/deliveries',
    {
      schema: {
        hide: true,
        params: webhookParams,
        querystring: Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const page = { limit: pageSize, ...(request.query.cursor && { before: request.query.cursor }) };
      const found = await services.webhooks.listDeliveries(project.id, request.params.webhookId, page);
      const nextCursor = found.length === pageSize ? found.at(-1)!.id : null;
      return { deliveries: found.map(toDeliveryView), nextCursor };
    },
  );
};
