import type { Kysely } from 'kysely';
import type { DueMail } from '../../../domain/mail/mail.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { writeTransaction } from '../write-transaction.ts';

/** MailQueue.takeDue: leases due mails, oldest first, each to one deliverer. */
export function takeDueMails(
  db: Kysely<DatabaseSchema>,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<DueMail[]> {
  const nowMs = now.getTime();
  return writeTransaction(db, async (trx) => {
    let query = trx
      .selectFrom('mail_outbox')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', nowMs)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowMs)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    // Nodes side by side each take other rows: one attempt per mail at a time.
    if (!isSqlite(db)) query = query.forUpdate().skipLocked();
    const rows = await query.execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('mail_outbox')
      .set({ lease_until: nowMs + leaseMs })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) => ({
      id: row.id,
      projectId: row.project_id,
      purpose: row.purpose,
      to: row.to_address,
      subject: row.subject,
      // A pending mail always has its body: it goes only when the mail is finished.
      text: row.text_body ?? '',
      html: row.html_body ?? undefined,
      attempts: Number(row.attempts),
      createdAt: new Date(Number(row.created_at)),
    }));
  });
}
