import type { Kysely, Selectable } from 'kysely';
import type { Webhook } from '../../domain/events/webhook.ts';
import type { WebhookChange, WebhookRepository } from '../../domain/events/webhook-repository.ts';
import type { DatabaseSchema, WebhooksTable } from '../database-schema.ts';

/** Webhook endpoints (migrations/events.ts), always looked up within their project. */
export class KyselyWebhookRepository implements WebhookRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(webhook: Webhook): Promise<void> {
    await this.#db
      .insertInto('webhooks')
      .values({
        id: webhook.id,
        project_id: webhook.projectId,
        url: webhook.url,
        events: JSON.stringify(webhook.events),
        description: webhook.description,
        enabled: webhook.enabled ? 1 : 0,
        disabled_reason: webhook.disabledReason,
        secret: webhook.secret,
        previous_secret: webhook.previousSecret,
        previous_secret_until: webhook.previousSecretUntil?.getTime() ?? null,
        created_at: webhook.createdAt.getTime(),
        updated_at: webhook.updatedAt.getTime(),
      })
      .execute();
  }

  async findById(projectId: string, id: string): Promise<Webhook | undefined> {
    const row = await this.#db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return row && toWebhook(row);
  }

  async list(projectId: string): Promise<Webhook[]> {
    const rows = await this.#db
      .selectFrom('webhooks')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toWebhook);
  }

  async update(
    projectId: string,
    id: string,
    change: WebhookChange,
    now: Date,
  ): Promise<Webhook | undefined> {
    await this.#db
      .updateTable('webhooks')
      .set({
        ...(change.url !== undefined && { url: change.url }),
        ...(change.events !== undefined && { events: JSON.stringify(change.events) }),
        ...(change.description !== undefined && { description: change.description }),
        ...(change.enabled !== undefined && { enabled: change.enabled ? 1 : 0, disabled_reason: null }),
        updated_at: now.getTime(),
      })
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .execute();
    return this.findById(projectId, id);
  }

  async rotateSecret(
    projectId: string,
    id: string,
    rotation: { secret: string; previousUntil: Date },
    now: Date,
  ): Promise<Webhook | undefined> {
    await this.#db
      .updateTable('webhooks')
      .set((eb) => ({
        previous_secret: eb.ref('secret'),
        previous_secret_until: rotation.previousUntil.getTime(),
        secret: rotation.secret,
        updated_at: now.getTime(),
      }))
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .execute();
    return this.findById(projectId, id);
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    // Its deliveries go with it (ON DELETE CASCADE).
    const result = await this.#db
      .deleteFrom('webhooks')
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async disable(id: string, reason: string, now: Date): Promise<void> {
    await this.#db
      .updateTable('webhooks')
      .set({ enabled: 0, disabled_reason: reason, updated_at: now.getTime() })
      .where('id', '=', id)
      .execute();
  }
}

export function toWebhook(row: Selectable<WebhooksTable>): Webhook {
  return {
    id: row.id,
    projectId: row.project_id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil:
      row.previous_secret_until === null ? null : new Date(Number(row.previous_secret_until)),
    createdAt: new Date(Number(row.created_at)),
    updatedAt: new Date(Number(row.updated_at)),
  };
}
