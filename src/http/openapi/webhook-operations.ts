import type { Operation } from './operation.ts';

/** Webhooks (issue 22): the app secret alone, or a project admin's token. */
export const webhookOperations: Record<string, Operation> = {
  'POST /api/v1/webhooks': {
    operationId: 'createWebhook',
    description:
      "Registers an endpoint that receives the project's events (by type or pattern) as Standard Webhooks POSTs. Its signing secret is answered only here. A backend (app secret) or a project admin.",
    access: 'admin',
    errors: ['VALIDATION_FAILED'],
    success: { status: 201, component: 'WebhookWithSecret' },
  },
  'GET /api/v1/webhooks': {
    operationId: 'listWebhooks',
    description: "The project's webhook endpoints, without their secrets.",
    access: 'admin',
    errors: [],
    success: { status: 200, component: 'WebhookList' },
  },
  'GET /api/v1/webhooks/:webhookId': {
    operationId: 'getWebhook',
    description: 'One webhook endpoint, without its secret.',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 200, component: 'Webhook' },
  },
  'PATCH /api/v1/webhooks/:webhookId': {
    operationId: 'updateWebhook',
    description:
      "Changes an endpoint's URL, events, description or enabled flag; enabled: true takes back a disabled endpoint (an answer of 410 Gone disables one).",
    access: 'admin',
    errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    success: { status: 200, component: 'Webhook' },
  },
  'DELETE /api/v1/webhooks/:webhookId': {
    operationId: 'deleteWebhook',
    description: 'Removes the endpoint and its deliveries; nothing more is sent to it.',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 204, description: 'The endpoint and its deliveries are gone' },
  },
  'POST /api/v1/webhooks/:webhookId/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    description:
      'Answers a new signing secret; deliveries carry signatures by both secrets for 24 hours, so the receiver can switch without losing any.',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 200, component: 'WebhookWithSecret' },
  },
  'POST /api/v1/webhooks/:webhookId/test': {
    operationId: 'testWebhook',
    description:
      'Sends a webhook.test event to the endpoint now, to check that it receives and verifies deliveries.',
    access: 'admin',
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
    success: { status: 200, component: 'WebhookDelivery' },
  },
  'GET /api/v1/webhooks/:webhookId/deliveries': {
    operationId: 'listWebhookDeliveries',
    description:
      "The endpoint's deliveries, newest first, with their state and each attempt (time, status code or network error, duration, the first 1 KiB of the answer): to see what failed, and retry it.",
    access: 'admin',
    errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    success: { status: 200, component: 'WebhookDeliveryPage' },
  },
  'POST /api/v1/webhooks/:webhookId/deliveries/:deliveryId/retry': {
    operationId: 'retryWebhookDelivery',
    description: 'Attempts a delivery again now: the same webhook-id, a fresh timestamp and signature.',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 202, description: 'The delivery is due again at once' },
  },
};
