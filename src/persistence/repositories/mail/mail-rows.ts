import type { Selectable } from 'kysely';
import type { MailStatus, NewMail, QueuedMail } from '../../../domain/mail/mail.ts';
import type { MailOutboxTable } from '../../database-schema.ts';

export function toMailRow(mail: NewMail) {
  return {
    id: mail.id,
    project_id: mail.projectId,
    purpose: mail.purpose,
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html ?? null,
    status: 'pending',
    attempts: 0,
    next_attempt_at: mail.createdAt.getTime(),
    last_attempt_at: null,
    last_error: null,
    lease_until: null,
    created_at: mail.createdAt.getTime(),
  };
}

const toDate = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)));

export function toQueuedMail(row: Selectable<MailOutboxTable>): QueuedMail {
  return {
    id: row.id,
    projectId: row.project_id,
    purpose: row.purpose,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    status: row.status as MailStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: toDate(row.next_attempt_at),
    lastAttemptAt: toDate(row.last_attempt_at),
    lastError: row.last_error,
    createdAt: new Date(Number(row.created_at)),
  };
}
