import type { Kysely } from 'kysely';
import type { NewMail } from '../../../domain/mail/mail.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { toMailRow } from './mail-rows.ts';

/**
 * Queues mails in the caller's transaction (issue 23): a flow that changes state and mails
 * about it (a password reset's token and its mail) commits both or neither, as insertEvents
 * does for events. The deliverer sees the mail once the transaction commits.
 */
export async function enqueueMail(trx: Kysely<DatabaseSchema>, ...mails: NewMail[]): Promise<void> {
  if (mails.length > 0) await trx.insertInto('mail_outbox').values(mails.map(toMailRow)).execute();
}
