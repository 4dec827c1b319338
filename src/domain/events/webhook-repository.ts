import type { Webhook } from './webhook.ts';

/** What PATCH /api/v1/webhooks/:id may change. Enabling clears the reason it was disabled. */
export type WebhookChange = Partial<Pick<Webhook, 'url' | 'events' | 'description' | 'enabled'>>;

/** A project's webhook endpoints. */
export interface WebhookRepository {
  create(webhook: Webhook): Promise<void>;
  findById(projectId: string, id: string): Promise<Webhook | undefined>;
  /** Every endpoint of the project (a project holds a handful), oldest first. */
  list(projectId: string): Promise<Webhook[]>;
  update(projectId: string, id: string, change: WebhookChange, now: Date): Promise<Webhook | undefined>;
  /** A new secret; the old one keeps signing until `previousUntil`. */
  rotateSecret(
    projectId: string,
    id: string,
    rotation: { secret: string; previousUntil: Date },
    now: Date,
  ): Promise<Webhook | undefined>;
  delete(projectId: string, id: string): Promise<boolean>;
  /** The service disables an endpoint (410 Gone, a failed retry schedule), saying why. */
  disable(id: string, reason: string, now: Date): Promise<void>;
}
