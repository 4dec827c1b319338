import type { RouteRegistrar } from '../route-context.ts';
import { createProjectWebhook } from './create-project-webhook.ts';
import { deleteProjectWebhook } from './delete-project-webhook.ts';
import { listProjectAudit } from './list-project-audit.ts';
import { listProjectWebhookDeliveries } from './list-project-webhook-deliveries.ts';
import { listProjectWebhooks } from './list-project-webhooks.ts';
import { retryProjectWebhookDelivery } from './retry-project-webhook-delivery.ts';
import { testProjectWebhook } from './test-project-webhook.ts';
import { updateProjectWebhook } from './update-project-webhook.ts';

/**
 * The console's webhooks and audit log (issue 22): the operator manages them as the project's
 * admin would, through the same services and their rules (the SSRF guard included).
 */
export const consoleEventRoutes: RouteRegistrar[] = [
  listProjectWebhooks,
  createProjectWebhook,
  updateProjectWebhook,
  deleteProjectWebhook,
  listProjectWebhookDeliveries,
  retryProjectWebhookDelivery,
  testProjectWebhook,
  listProjectAudit,
];
