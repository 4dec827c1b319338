import type { Config } from '../config/config.ts';
import type { Webhooks } from '../domain/events/webhooks.ts';
import { getProject } from './admin-commands.ts';
import type { Command } from './command.ts';
import { withLocalPaths } from './local-paths.ts';
import {
  toDeliveriesText,
  toDeliveryView,
  toWebhookLine,
  toWebhookText,
  toWebhookView,
} from './webhook-views.ts';

const deliveriesPageSize = 50;

/**
 * Runs `work` with the project's webhooks. The services are the server's, built from the same
 * settings: COFFER_WEBHOOK_ALLOW_PRIVATE decides here, as on the server, which URLs may be added.
 */
async function withWebhooks<T>(
  config: Config,
  project: string,
  work: (webhooks: Webhooks, projectId: string) => Promise<T>,
): Promise<T> {
  return withLocalPaths(config, { stores: 'existing' }, async () => {
    const { buildServices } = await import('../services.ts'); // the wiring loads only when a command runs
    const services = await buildServices(config, { log: (line) => console.error(line) });
    try {
      return await work(services.webhooks, (await getProject(services.repositories, project)).id);
    } finally {
      await services.close();
    }
  });
}

/** `--events file.*,user.login` → the list the domain checks; every event by default. */
const toEvents = (value: string | undefined) =>
  value === undefined ? ['*'] : value.split(',').map((name) => name.trim());

/** `coffer webhook add|list|show|rm|deliveries|retry`: a project's webhooks, on the stores directly. */
export const webhookCommands: Record<string, Command> = {
  'webhook add': {
    summary: 'Add a webhook endpoint; prints its signing secret (shown once).',
    flags: ['events', 'description', 'json'],
    args: ['<project>', '<url>'],
    run: async (config, values, [project, url]) => {
      const input = { url, events: toEvents(values.events), description: values.description ?? '' };
      const webhook = await withWebhooks(config, project!, (webhooks, projectId) =>
        webhooks.create(projectId, input),
      );
      const result = { ...toWebhookView(webhook), secret: webhook.secret };
      const text = `${toWebhookText(result)}\n  secret:  ${webhook.secret}\n(the secret is shown once; keep it safe)`;
      return { json: result, text };
    },
  },
  'webhook list': {
    summary: "List a project's webhook endpoints (never their secrets).",
    flags: ['json'],
    args: ['<project>'],
    run: async (config, _values, [project]) => {
      const webhooks = await withWebhooks(config, project!, async (webhooks, projectId) =>
        (await webhooks.list(projectId)).map(toWebhookView),
      );
      return { json: { webhooks }, text: webhooks.map(toWebhookLine).join('\n') || 'No webhooks' };
    },
  },
  'webhook show': {
    summary: 'Print a webhook endpoint: its URL, events, state and why it was disabled.',
    flags: ['json'],
    args: ['<project>', '<webhookId>'],
    run: async (config, _values, [project, id]) => {
      const webhook = await withWebhooks(config, project!, async (webhooks, projectId) =>
        toWebhookView(await webhooks.get(projectId, id!)),
      );
      return { json: webhook, text: toWebhookText(webhook) };
    },
  },
  'webhook rm': {
    summary: 'Remove a webhook endpoint and its deliveries.',
    flags: ['json'],
    args: ['<project>', '<webhookId>'],
    run: async (config, _values, [project, id]) => {
      await withWebhooks(config, project!, (webhooks, projectId) => webhooks.delete(projectId, id!));
      return { json: { webhookId: id!, deleted: true }, text: `Removed webhook ${id}` };
    },
  },
  'webhook deliveries': {
    summary: "A webhook endpoint's deliveries, newest first, 50 a page (--cursor for the next).",
    flags: ['cursor', 'json'],
    args: ['<project>', '<webhookId>'],
    run: async (config, values, [project, id]) => {
      const page = { limit: deliveriesPageSize, ...(values.cursor && { before: values.cursor }) };
      const found = await withWebhooks(config, project!, (webhooks, projectId) =>
        webhooks.listDeliveries(projectId, id!, page),
      );
      const deliveries = found.map(toDeliveryView);
      const nextCursor = found.length === deliveriesPageSize ? found.at(-1)!.id : null;
      return { json: { deliveries, nextCursor }, text: toDeliveriesText(deliveries, nextCursor) };
    },
  },
  'webhook retry': {
    summary: 'Attempt a delivery again now (a running server sends it).',
    flags: ['json'],
    args: ['<project>', '<webhookId>', '<deliveryId>'],
    run: async (config, _values, [project, id, deliveryId]) => {
      await withWebhooks(config, project!, (webhooks, projectId) =>
        webhooks.retryDelivery(projectId, id!, deliveryId!),
      );
      const text = `Delivery ${deliveryId} is due again now; a running server attempts it`;
      return { json: { deliveryId: deliveryId!, retried: true }, text };
    },
  },
};
