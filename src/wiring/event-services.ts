import { parseRetrySchedule } from '../config/config.ts';
import { EventStream } from '../domain/events/event-stream.ts';
import { WebhookDeliverer } from '../domain/events/webhook-deliverer.ts';
import { newDeliveryId, Webhooks } from '../domain/events/webhooks.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import type { ServiceMetrics } from '../metrics/service-metrics.ts';
import { HttpWebhookSender } from '../webhooks/http-webhook-sender.ts';
import type { WiringContext } from './wiring-context.ts';

/** Events (issue 22): the webhooks' management and their delivery, over one guarded sender. */
export type EventServices = {
  webhooks: Webhooks;
  /** Run by `serve`'s background work (start-event-delivery.ts). */
  webhookDeliverer: WebhookDeliverer;
  /** The live stream's hub (GET /api/v1/events), in every process that serves HTTP. */
  eventStream: EventStream;
};

export function buildEventServices(
  context: WiringContext,
  shared: { metrics: ServiceMetrics },
): EventServices {
  const { config, repositories, clock } = context;
  const sender = new HttpWebhookSender({
    allowPrivate: config.webhookAllowPrivate,
    timeoutSeconds: config.webhookTimeoutSeconds,
  });
  shared.metrics.events.watchLag(() => repositories.deliveries.measureLag(clock.now()));
  return {
    webhooks: new Webhooks({
      webhooks: repositories.webhooks,
      deliveries: repositories.deliveries,
      sender,
      clock,
      tests: {
        buckets: new TokenBuckets(repositories.rateLimits),
        perWebhook: toBucketRule(config.webhookTestsPerHour),
      },
    }),
    webhookDeliverer: new WebhookDeliverer({
      deliveries: repositories.deliveries,
      webhooks: repositories.webhooks,
      sender,
      clock,
      retrySeconds: parseRetrySchedule(config.webhookRetrySeconds) ?? [],
      newId: () => newDeliveryId(clock.now()),
      concurrency: config.webhookConcurrency,
      perEndpoint: config.webhookConcurrencyPerEndpoint,
      // Longer than an attempt may take: a lease lapses only when its holder is gone.
      leaseMs: (config.webhookTimeoutSeconds + 5) * 1000,
      onOutcome: (outcome) => shared.metrics.events.attempted(outcome),
    }),
    eventStream: new EventStream({
      log: repositories.events,
      files: repositories.files,
      clock,
      maxStreamsPerUser: config.eventStreamsPerUser,
      maxStreamsPerAddress: config.eventStreamsPerAddress,
    }),
  };
}
