import type { Operation } from './operation.ts';

/** Webhooks (issue 22): the app secret alone, or a project admin's token. */
export const webhookOperations: Record<string, Operation> = {
  'POST /api/v1/webhooks': {
    operationId: 'createWebhook',
    access: 'admin',
    errors: ['VALIDATION_FAILED'],
    success: { status: 201, component: 'WebhookWithSecret' },
  },
  'GET /api/v1/webhooks': {
    operationId: 'listWebhooks',
    access: 'admin',
    errors: [],
    success: { status: 200, component: 'WebhookList' },
  },
  'GET /api/v1/webhooks/:webhookId': {
    operationId: 'getWebhook',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 200, component: 'Webhook' },
  },
  'PATCH /api/v1/webhooks/:webhookId': {
    operationId: 'updateWebhook',
    access: 'admin',
    errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    success: { status: 200, component: 'Webhook' },
  },
  'DELETE /api/v1/webhooks/:webhookId': {
    operationId: 'deleteWebhook',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 204, description: 'The endpoint and its deliveries are gone' },
  },
  'POST /api/v1/webhooks/:webhookId/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 200, component: 'WebhookWithSecret' },
  },
  'POST /api/v1/webhooks/:webhookId/test': {
    operationId: 'testWebhook',
    access: 'admin',
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
    success: { status: 200, component: 'WebhookDelivery' },
  },
  'GET /api/v1/webhooks/:webhookId/deliveries': {
    operationId: 'listWebhookDeliveries',
    access: 'admin',
    errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    success: { status: 200, component: 'WebhookDeliveryPage' },
  },
  'POST /api/v1/webhooks/:webhookId/deliveries/:deliveryId/retry': {
    operationId: 'retryWebhookDelivery',
    access: 'admin',
    errors: ['NOT_FOUND'],
    success: { status: 202, description: 'The delivery is due again at once' },
  },
};
