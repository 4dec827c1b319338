import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { DeliverySchema, toDeliveryView, WebhookIdParams } from './webhook-schemas.ts';

const pageSize = 50;

/** GET /api/v1/webhooks/:webhookId/deliveries?cursor=: newest first, a page at a time. */
export const listWebhookDeliveries: RouteRegistrar = (app, services) => {
  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        summary: "A webhook endpoint's deliveries, newest first",
        tags: ['webhooks'],
        params: WebhookIdParams,
        querystring: Type.Object({
          cursor: Type.Optional(Type.String({ maxLength: 64, description: 'nextCursor of the page before' })),
        }),
        response: {
          200: Type.Object({
            deliveries: Type.Array(DeliverySchema),
            nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
          }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const projectId = toManagedProject(request);
      const page = { limit: pageSize, ...(request.query.cursor && { before: request.query.cursor }) };
      const deliveries = await services.webhooks.listDeliveries(projectId, request.params.webhookId, page);
      const nextCursor = deliveries.length === pageSize ? deliveries.at(-1)!.id : null;
      return { deliveries: deliveries.map(toDeliveryView), nextCursor };
    },
  );
};
