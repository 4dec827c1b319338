import { validationFailed } from '../../errors/errors.ts';
import { type EventType, eventTypes } from './event.ts';

/** A project's webhook endpoint (issue 22). */
export type Webhook = {
  id: string;
  projectId: string;
  url: string;
  /** Event types and patterns (`file.*`, `*`) it receives. */
  events: string[];
  description: string;
  enabled: boolean;
  /** Why the service disabled it (410, a whole failed retry schedule); null when enabled or disabled by hand. */
  disabledReason: string | null;
  /** `whsec_…`, shown once at creation and rotation. */
  secret: string;
  /** The secret before the last rotation: it still signs until previousSecretUntil. */
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const maxPatterns = 32;

/** Checks and normalizes the `events` of a webhook: known types, `<group>.*` or `*`. */
export function parseEventPatterns(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > maxPatterns)
    throw validationFailed(
      `events must be a list of 1 to ${maxPatterns} event types or patterns such as "file.*"`,
    );
  const groups = new Set(eventTypes.map((type) => type.split('.')[0]));
  const patterns = [...new Set(value.map(String))];
  for (const pattern of patterns) {
    const group = pattern.endsWith('.*') ? pattern.slice(0, -2) : undefined;
    const known =
      pattern === '*' ||
      (eventTypes as readonly string[]).includes(pattern) ||
      (group !== undefined && groups.has(group));
    if (!known)
      throw validationFailed(
        `events: ${JSON.stringify(pattern)} is no event type; use *, ${[...groups].map((g) => `${g}.*`).join(', ')} or one of ${eventTypes.join(', ')}`,
      );
  }
  return patterns;
}

/** Whether an event of `type` goes to an endpoint listening to `patterns`. */
export function matchesEventPatterns(patterns: readonly string[], type: EventType | string): boolean {
  return patterns.some(
    (pattern) =>
      pattern === '*' ||
      pattern === type ||
      (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
}

/** The secrets that sign an attempt at `now`: the current one, and the previous one for 24 h after a rotation. */
export function signingSecrets(
  webhook: Pick<Webhook, 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  now: Date,
): string[] {
  const previousValid =
    webhook.previousSecret !== null &&
    webhook.previousSecretUntil !== null &&
    webhook.previousSecretUntil > now;
  return previousValid ? [webhook.secret, webhook.previousSecret!] : [webhook.secret];
}
