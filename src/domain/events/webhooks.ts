import { notFound, validationFailed } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { newId } from '../ids.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';
import { toAttemptRecord } from './delivery-attempt.ts';
import type { DeliveryQueue, DeliveryWithAttempts } from './delivery-queue.ts';
import { newEventId } from './event-id.ts';
import { parseEventPatterns, signingSecrets, type Webhook } from './webhook.ts';
import type { WebhookChange, WebhookRepository } from './webhook-repository.ts';
import { newWebhookSecret } from './webhook-secret.ts';
import type { WebhookSender } from './webhook-sender.ts';

export type WebhooksOptions = {
  webhooks: WebhookRepository;
  deliveries: DeliveryQueue;
  sender: WebhookSender;
  clock: Clock;
  /** Test deliveries per endpoint: each one is a request to a host the caller chose. */
  tests: { buckets: TokenBuckets; perWebhook: BucketRule };
};

export type WebhookInput = { url?: unknown; events?: unknown; description?: unknown; enabled?: unknown };

/** Endpoints a project may have: each event is attempted once per endpoint. */
export const maxWebhooksPerProject = 16;
/** How long the secret before a rotation keeps signing (Standard Webhooks' overlap). */
const previousSecretSeconds = 86_400;
const maxUrlLength = 2048;
const maxDescriptionLength = 256;

/**
 * A project's webhook endpoints (issue 22): managed by the project's admins or with its app
 * secret. The secret is answered at creation and rotation only.
 */
export class Webhooks {
  readonly #o: WebhooksOptions;

  constructor(options: WebhooksOptions) {
    this.#o = options;
  }

  async create(projectId: string, input: WebhookInput): Promise<Webhook> {
    if ((await this.#o.webhooks.list(projectId)).length >= maxWebhooksPerProject)
      throw validationFailed(`a project has at most ${maxWebhooksPerProject} webhooks`);
    const url = await this.#checkUrl(input.url);
    const now = this.#o.clock.now();
    const webhook: Webhook = {
      id: newId(),
      projectId,
      url,
      events: parseEventPatterns(input.events),
      description: parseDescription(input.description ?? ''),
      enabled: true,
      disabledReason: null,
      secret: newWebhookSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.#o.webhooks.create(webhook);
    return webhook;
  }

  list(projectId: string): Promise<Webhook[]> {
    return this.#o.webhooks.list(projectId);
  }

  async get(projectId: string, id: string): Promise<Webhook> {
    const webhook = await this.#o.webhooks.findById(projectId, id);
    if (!webhook) throw notFound('webhook');
    return webhook;
  }

  async update(projectId: string, id: string, input: WebhookInput): Promise<Webhook> {
    await this.get(projectId, id);
    const change: WebhookChange = {};
    if (input.url !== undefined) change.url = await this.#checkUrl(input.url);
    if (input.events !== undefined) change.events = parseEventPatterns(input.events);
    if (input.description !== undefined) change.description = parseDescription(input.description);
    if (input.enabled !== undefined) {
      if (typeof input.enabled !== 'boolean') throw validationFailed('enabled must be true or false');
      change.enabled = input.enabled;
    }
    const updated = await this.#o.webhooks.update(projectId, id, change, this.#o.clock.now());
    if (!updated) throw notFound('webhook');
    return updated;
  }

  async delete(projectId: string, id: string): Promise<void> {
    if (!(await this.#o.webhooks.delete(projectId, id))) throw notFound('webhook');
  }

  /** A new secret; the one before keeps signing for 24 hours, so receivers can switch over. */
  async rotateSecret(projectId: string, id: string): Promise<Webhook> {
    await this.get(projectId, id);
    const now = this.#o.clock.now();
    const rotation = {
      secret: newWebhookSecret(),
      previousUntil: new Date(now.getTime() + previousSecretSeconds * 1000),
    };
    const rotated = await this.#o.webhooks.rotateSecret(projectId, id, rotation, now);
    if (!rotated) throw notFound('webhook');
    return rotated;
  }

  /** Sends a `webhook.test` event now, answers how it went, and lists it among the deliveries. */
  async test(projectId: string, id: string): Promise<DeliveryWithAttempts> {
    const webhook = await this.get(projectId, id);
    const now = this.#o.clock.now();
    const { buckets, perWebhook } = this.#o.tests;
    await buckets.takeAll([{ key: toBucketKey('webhook-test', webhook.id), rule: perWebhook }], now);
    const eventId = newEventId(now);
    const body = JSON.stringify({
      type: 'webhook.test',
      timestamp: now.toISOString(),
      data: { webhookId: webhook.id, project: projectId },
    });
    const outcome = await this.#o.sender.send({
      url: webhook.url,
      secrets: signingSecrets(webhook, now),
      eventId,
      attemptedAt: now,
      body,
    });
    const delivery = {
      id: newDeliveryId(now),
      webhookId: webhook.id,
      eventId,
      eventType: 'webhook.test',
      status: outcome.kind === 'delivered' ? ('delivered' as const) : ('failed' as const),
      attempts: 1,
      nextAttemptAt: null,
      lastAttemptAt: now,
      lastStatus: 'status' in outcome ? (outcome.status ?? null) : null,
      lastError:
        outcome.kind === 'failed'
          ? outcome.error
          : outcome.kind === 'gone'
            ? 'the endpoint answered 410 Gone'
            : null,
      createdAt: now,
    };
    const attempt = toAttemptRecord(outcome, now);
    await this.#o.deliveries.recordTest({ ...delivery, body, attempt });
    return { ...delivery, fileId: null, attemptLog: [{ attempt: 1, ...attempt }] };
  }

  async listDeliveries(
    projectId: string,
    id: string,
    page: { before?: string; limit: number },
  ): Promise<DeliveryWithAttempts[]> {
    await this.get(projectId, id);
    return this.#o.deliveries.list(id, page);
  }

  async retryDelivery(projectId: string, id: string, deliveryId: string): Promise<void> {
    await this.get(projectId, id);
    if (!(await this.#o.deliveries.retry(id, deliveryId, this.#o.clock.now()))) throw notFound('delivery');
  }

  async #checkUrl(value: unknown): Promise<string> {
    if (typeof value !== 'string' || value.length === 0 || value.length > maxUrlLength)
      throw validationFailed(`url must be an http or https URL of at most ${maxUrlLength} characters`);
    await this.#o.sender.assertAllowedTarget(value);
    return value;
  }
}

/** Delivery ids sort by time, as event ids do (the deliveries list pages by them). */
export function newDeliveryId(at: Date): string {
  return `dlv_${newEventId(at).slice('evt_'.length)}`;
}

function parseDescription(value: unknown): string {
  if (typeof value !== 'string' || value.length > maxDescriptionLength)
    throw validationFailed(`description must be text of at most ${maxDescriptionLength} characters`);
  return value;
}
