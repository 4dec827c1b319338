import type { RouteRegistrar } from '../../route-context.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { getWebhook } from './get-webhook.ts';
import { listWebhookDeliveries } from './list-webhook-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { retryWebhookDelivery } from './retry-webhook-delivery.ts';
import { rotateWebhookSecret } from './rotate-webhook-secret.ts';
import { testWebhook } from './test-webhook.ts';
import { updateWebhook } from './update-webhook.ts';

/** Webhooks (issue 22): managed with the app secret or by a project admin. */
export const webhookRoutes: RouteRegistrar[] = [
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  testWebhook,
  listWebhookDeliveries,
  retryWebhookDelivery,
];
