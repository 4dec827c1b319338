import type { Kysely } from 'kysely';
import type { DueMail, MailAttemptResult, NewMail, QueuedMail } from '../../domain/mail/mail.ts';
import type { MailQueue, MailQueueMeasure } from '../../domain/mail/mail-queue.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { enqueueMail } from './mail/enqueue-mail.ts';
import { toQueuedMail } from './mail/mail-rows.ts';
import { takeDueMails } from './mail/take-due-mails.ts';

/** Outgoing mail (migrations/mail-outbox.ts): the queue, the leases, the attempts. */
export class KyselyMailQueue implements MailQueue {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  enqueue(mail: NewMail): Promise<void> {
    return enqueueMail(this.#db, mail);
  }

  takeDue(now: Date, limit: number, leaseMs: number): Promise<DueMail[]> {
    return takeDueMails(this.#db, now, limit, leaseMs);
  }

  async recordAttempt(mailId: string, result: MailAttemptResult, now: Date): Promise<void> {
    const finished = result.status !== 'pending';
    await this.#db
      .updateTable('mail_outbox')
      .set((eb) => ({
        status: result.status,
        attempts: eb('attempts', '+', 1),
        next_attempt_at: result.nextAttemptAt?.getTime() ?? null,
        last_attempt_at: now.getTime(),
        last_error: result.lastError,
        lease_until: null,
        // security: the bodies hold single-use tokens; a finished mail keeps only its headers.
        ...(finished && { text_body: null, html_body: null }),
      }))
      .where('id', '=', mailId)
      .execute();
  }

  async find(mailId: string): Promise<QueuedMail | undefined> {
    const row = await this.#db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', '=', mailId)
      .executeTakeFirst();
    return row && toQueuedMail(row);
  }

  async measure(now: Date): Promise<MailQueueMeasure> {
    const pending = await this.#db
      .selectFrom('mail_outbox')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const oldest = pending.oldest === null ? null : Number(pending.oldest);
    return {
      pendingMails: Number(pending.count),
      oldestPendingSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
    };
  }

  async deleteFinishedBefore(before: Date, limit: number): Promise<number> {
    const old = await this.#db
      .selectFrom('mail_outbox')
      .select('id')
      .where('created_at', '<', before.getTime())
      // Pending mails stay, whatever their age: they are work, not history.
      .where('status', '!=', 'pending')
      .orderBy('created_at')
      .limit(limit)
      .execute();
    if (old.length === 0) return 0;
    const ids = old.map((row) => row.id);
    await this.#db.deleteFrom('mail_outbox').where('id', 'in', ids).execute();
    return old.length;
  }
}
