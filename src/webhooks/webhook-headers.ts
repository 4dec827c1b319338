import type { OutgoingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { WebhookAttempt } from '../domain/events/webhook-sender.ts';

/**
 * The request headers of an attempt. Standard Webhooks: each secret signs
 * `${webhook-id}.${webhook-timestamp}.${body}`, and the signatures go space-separated in one
 * `webhook-signature` header, so a receiver holding either secret of a rotation verifies.
 * Throws if a secret is not a `whsec_` base64 key.
 */
export function toWebhookHeaders(attempt: WebhookAttempt, userAgent: string): OutgoingHttpHeaders {
  if (attempt.secrets.length === 0) throw new Error('the endpoint has no signing secret');
  const signatures = attempt.secrets.map((secret) =>
    new Webhook(secret).sign(attempt.eventId, attempt.attemptedAt, attempt.body),
  );
  return {
    'webhook-id': attempt.eventId,
    'webhook-timestamp': String(Math.floor(attempt.attemptedAt.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(attempt.body),
    'user-agent': userAgent,
  };
}
