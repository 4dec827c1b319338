import { maxTimerSeconds, type Setting } from '../setting.ts';

/** Events and webhooks (issue 22): delivery, its guard, and how long the log is kept. */
export const eventSettings = {
  webhookRetrySeconds: {
    env: 'COFFER_WEBHOOK_RETRY_SECONDS',
    kind: 'string',
    defaultValue: '5,300,1800,7200,18000,36000,50400,72000,86400',
    doc: "Seconds before each retry of a failed webhook delivery, comma-separated (default about 3 days in all; each jittered ±20%, or the receiver's Retry-After when longer); an endpoint that fails past the last is disabled.",
  },
  webhookTimeoutSeconds: {
    env: 'COFFER_WEBHOOK_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 15,
    min: 1,
    max: 120,
    doc: 'The longest one webhook attempt may take (connect, send, answer); past it the attempt failed.',
  },
  webhookAllowPrivate: {
    env: 'COFFER_WEBHOOK_ALLOW_PRIVATE',
    kind: 'boolean',
    defaultValue: false,
    doc: 'Whether webhooks may target loopback, private, link-local and other non-public addresses (refused by default, at creation and at every delivery after resolution: a guard against requests into your network).',
  },
  webhookConcurrency: {
    env: 'COFFER_WEBHOOK_CONCURRENCY',
    kind: 'integer',
    defaultValue: 8,
    min: 1,
    max: 256,
    doc: 'Webhook attempts in flight at once in the process that delivers them.',
  },
  webhookTestsPerHour: {
    env: 'COFFER_WEBHOOK_TESTS_PER_HOUR',
    kind: 'integer',
    defaultValue: 20,
    min: 1,
    max: 10_000,
    doc: 'Test deliveries (POST /api/v1/webhooks/:id/test) per endpoint per hour; past it, 429 RATE_LIMITED.',
  },
  eventRetentionDays: {
    env: 'COFFER_EVENT_RETENTION_DAYS',
    kind: 'integer',
    defaultValue: 90,
    min: 1,
    max: 36_500,
    doc: "How long events stay in the log (the audit log, the stream's replay) and finished deliveries in their lists.",
  },
  eventDeliveryIntervalMs: {
    env: 'COFFER_EVENT_DELIVERY_INTERVAL_MS',
    kind: 'integer',
    defaultValue: 500,
    min: 10,
    max: maxTimerSeconds * 1000,
    doc: 'How often an idle deliverer looks for new events and due deliveries.',
  },
  eventStreamsPerUser: {
    env: 'COFFER_EVENT_STREAMS_PER_USER',
    kind: 'integer',
    defaultValue: 10,
    min: 1,
    max: 10_000,
    doc: 'Event streams (GET /api/v1/events) one user may hold open at once in one server process; past it, 429 RATE_LIMITED.',
  },
  eventStreamsPerAddress: {
    env: 'COFFER_EVENT_STREAMS_PER_ADDRESS',
    kind: 'integer',
    defaultValue: 100,
    min: 1,
    max: 100_000,
    doc: 'Event streams one client address (an IPv6 address by its /64) may hold open at once in one server process, all users together; past it, 429 RATE_LIMITED.',
  },
} as const satisfies Record<string, Setting>;
