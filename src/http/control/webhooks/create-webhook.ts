import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { toWebhookView, WebhookInputSchema, WebhookWithSecretSchema } from './webhook-schemas.ts';

/** POST /api/v1/webhooks {url, events, description}: a new endpoint and its secret (shown only here). */
export const createWebhook: RouteRegistrar = (app, services) => {
  app.post(
    '/webhooks',
    {
      schema: {
        summary: 'Add a webhook endpoint (its signing secret is answered only here)',
        tags: ['webhooks'],
        body: WebhookInputSchema,
        response: { 201: WebhookWithSecretSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const projectId = toManagedProject(request);
      const webhook = await services.webhooks.create(projectId, request.body);
      return reply.code(201).send({ ...toWebhookView(webhook), secret: webhook.secret });
    },
  );
};
