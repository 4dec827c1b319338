import { Type } from '@sinclair/typebox';
import type { DeliveryWithAttempts } from '../../../domain/events/delivery-queue.ts';
import type { Webhook } from '../../../domain/events/webhook.ts';

export const WebhookIdParams = Type.Object({ webhookId: Type.String({ maxLength: 64 }) });

/** The body of POST and PATCH: rules and messages are the domain's (domain/events/webhooks.ts). */
export const WebhookInputSchema = Type.Object(
  {
    url: Type.Optional(Type.String({ description: 'http(s) URL that receives POSTed events' })),
    events: Type.Optional(
      Type.Array(Type.String(), { description: 'event types, or patterns: "file.*", "user.*", "*"' }),
    ),
    description: Type.Optional(Type.String()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Type.String(),
    enabled: Type.Boolean(),
    disabledReason: Type.Union([Type.String(), Type.Null()], {
      description: 'why Coffer disabled it (410 Gone, a failed retry schedule); null otherwise',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Webhook', title: 'Webhook' },
);

export const WebhookWithSecretSchema = Type.Object(
  {
    ...WebhookSchema.properties,
    secret: Type.String({ description: 'whsec_…: the signing secret, shown only in this answer' }),
  },
  { $id: 'WebhookWithSecret', title: 'WebhookWithSecret' },
);

/** One attempt of a delivery (issue 43, item 7), as Svix and Stripe list them. */
export const DeliveryAttemptSchema = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1, description: '1 for the first' }),
    at: Type.String({ format: 'date-time', description: 'when the attempt began' }),
    statusCode: Type.Union([Type.Integer(), Type.Null()], {
      description: "the answer's status; null when none came",
    }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'why no answer came (a timeout, a connection reset or refused); null with a status code',
    }),
    durationMs: Type.Integer({ minimum: 0 }),
    responseBody: Type.Union([Type.String(), Type.Null()], {
      description:
        "the first 1 KiB of the answer's body as text, cut between characters; null without an answer",
    }),
    responseBodyTruncated: Type.Boolean({ description: 'the body was longer than responseBody' }),
  },
  { $id: 'WebhookDeliveryAttempt', title: 'WebhookDeliveryAttempt' },
);

export const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: 'the webhook-id header of its attempts' }),
    eventType: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastStatus: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    attemptLog: Type.Array(DeliveryAttemptSchema, {
      description:
        'each attempt, oldest first: all within the retry schedule (retried by hand past it, the latest as many); empty for deliveries attempted before Coffer kept them',
    }),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);

export function toWebhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}

export function toDeliveryView(delivery: DeliveryWithAttempts) {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastAttemptAt: iso(delivery.lastAttemptAt),
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
    attemptLog: delivery.attemptLog.map((attempt) => ({ ...attempt, at: attempt.at.toISOString() })),
  };
}
