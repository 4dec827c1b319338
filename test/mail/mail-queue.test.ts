import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProject } from '../../src/domain/identity/create-project.ts';
import { type MailMessage, toNewMail } from '../../src/domain/mail/mail.ts';
import { MailDeliverer, type MailOutcome } from '../../src/domain/mail/mail-deliverer.ts';
import { MailSendError, type MailTransport } from '../../src/domain/mail/mail-transport.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { enqueueMail } from '../../src/persistence/repositories/mail/enqueue-mail.ts';
import { writeTransaction } from '../../src/persistence/repositories/write-transaction.ts';
import { databaseStores } from '../support/database-stores.ts';
import { ManualClock } from '../support/manual-clock.ts';

/** A transport at the SMTP edge: answers each send with the next scripted failure, or accepts. */
class ScriptedTransport implements MailTransport {
  readonly sent: MailMessage[] = [];
  readonly #failures: (MailSendError | undefined)[];
  constructor(failures: (MailSendError | undefined)[]) {
    this.#failures = failures;
  }
  async send(message: MailMessage): Promise<void> {
    const failure = this.#failures.shift();
    if (failure) throw failure;
    this.sent.push(message);
  }
  close(): void {}
}

const transient = () => new MailSendError('ECONNECTION: connection refused', { permanent: false });
const message = { to: 'ada@example.com', subject: 'Hello', text: 'token abc', html: '<b>token abc</b>' };

/** Issue 23: the queue's rules on both dialects (the SMTP end to end is mail-delivery.test.ts). */
for (const [name, open] of await databaseStores()) {
  describe(`mail queue (${name})`, () => {
    async function setUp(failures: (MailSendError | undefined)[], retrySeconds = [10, 60]) {
      const database = await open();
      await migrateToLatest(database.db);
      const repositories = createRepositories(database.db);
      const { project } = await createProject(repositories.projects, { name: 'mail' });
      const clock = new ManualClock(1_800_000_000);
      const transport = new ScriptedTransport(failures);
      const outcomes: MailOutcome[] = [];
      const deliverer = new MailDeliverer({
        ...{ queue: repositories.mail, transport, clock, retrySeconds },
        ...{ concurrency: 2, leaseMs: 60_000, onOutcome: (outcome: MailOutcome) => outcomes.push(outcome) },
      });
      const newMail = () => toNewMail(message, { projectId: project.id, purpose: 'test', now: clock.now() });
      return { database, repositories, clock, transport, outcomes, deliverer, newMail };
    }

    it('retries a transient failure along the schedule (jittered), then gives the mail up', async () => {
      const { database, repositories, clock, transport, outcomes, deliverer, newMail } = await setUp([
        transient(),
        transient(),
        transient(),
      ]);
      const mail = newMail();
      await repositories.mail.enqueue(mail);
      assert.equal(await deliverer.runOnce(), 1);
      const first = (await repositories.mail.find(mail.id))!;
      assert.equal(first.status, 'pending');
      const waitMs = first.nextAttemptAt!.getTime() - clock.now().getTime();
      assert.ok(waitMs >= 8_000 && waitMs <= 12_000, `10 s ±20%, got ${waitMs} ms`);
      assert.equal(await deliverer.runOnce(), 0, 'not due before its retry');
      clock.advance(13);
      assert.equal(await deliverer.runOnce(), 1);
      clock.advance(73);
      assert.equal(await deliverer.runOnce(), 1);
      const given = (await repositories.mail.find(mail.id))!;
      assert.deepEqual([given.status, given.attempts, given.text, given.html], ['failed', 3, null, null]);
      assert.deepEqual(outcomes, ['retrying', 'retrying', 'failed']);
      assert.equal(transport.sent.length, 0);
      await database.close();
    });

    it('a taken mail is leased: not taken again until the lease lapses', async () => {
      const { database, repositories, clock, newMail } = await setUp([]);
      const mail = newMail();
      await repositories.mail.enqueue(mail);
      assert.equal((await repositories.mail.takeDue(clock.now(), 10, 60_000)).length, 1);
      assert.equal((await repositories.mail.takeDue(clock.now(), 10, 60_000)).length, 0);
      clock.advance(61);
      const again = await repositories.mail.takeDue(clock.now(), 10, 60_000);
      assert.deepEqual(
        again.map((due) => [due.id, due.text, due.html]),
        [[mail.id, message.text, message.html]],
      );
      await database.close();
    });

    it("enqueueMail writes in the caller's transaction: a rollback leaves no mail", async () => {
      const { database, repositories, newMail } = await setUp([]);
      const kept = newMail();
      const dropped = newMail();
      await writeTransaction(database.db, (trx) => enqueueMail(trx, kept));
      await writeTransaction(database.db, async (trx) => {
        await enqueueMail(trx, dropped);
        await trx.rollback().execute();
      });
      assert.equal((await repositories.mail.find(kept.id))?.status, 'pending');
      assert.equal(await repositories.mail.find(dropped.id), undefined);
      await database.close();
    });

    it('the retention removes finished mails past their age, never a pending one', async () => {
      const { database, repositories, clock, deliverer, newMail } = await setUp([undefined, transient()]);
      const sent = newMail();
      const pending = newMail();
      await repositories.mail.enqueue(sent);
      await repositories.mail.enqueue(pending);
      assert.equal(await deliverer.runOnce(), 2);
      assert.deepEqual(await repositories.mail.measure(clock.now()), {
        pendingMails: 1,
        oldestPendingSeconds: 0,
      });
      clock.advance(3600);
      assert.equal(await repositories.mail.deleteFinishedBefore(clock.now(), 100), 1);
      assert.equal(await repositories.mail.find(sent.id), undefined);
      assert.equal((await repositories.mail.find(pending.id))?.status, 'pending');
      await database.close();
    });
  });
}
