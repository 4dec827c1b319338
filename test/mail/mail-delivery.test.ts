import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { type NewMail, toNewMail } from '../../src/domain/mail/mail.ts';
import { openStores } from '../../src/wiring/open-stores.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';
import { makeCertificate } from '../support/tls-fixtures.ts';
import { waitUntil } from '../support/webhook-receiver.ts';
import { freePort, startSmtpReceiver } from './smtp-receiver.ts';

const quick = {
  COFFER_MAIL_RETRY_SECONDS: '1,1,1,1,1,1,1,1,1,1',
  COFFER_MAIL_DELIVERY_INTERVAL_MS: '20',
  COFFER_MAIL_TIMEOUT_SECONDS: '2',
};

/** The server's own stores, opened from the test (the same settings the CLI would use). */
async function withMailQueue<T>(coffer: CofferProcess, work: (queue: QueueAccess) => Promise<T>) {
  const config = loadConfig({ 'data-dir': coffer.dataDir }, { ...process.env, ...coffer.env });
  const { database, repositories } = await openStores(config);
  try {
    return await work({ mail: repositories.mail, projects: repositories.projects });
  } finally {
    await database.close();
  }
}
type QueueAccess = Pick<Awaited<ReturnType<typeof openStores>>['repositories'], 'mail' | 'projects'>;

async function queueTestMail(coffer: CofferProcess, to: string): Promise<string> {
  const queued = await runCli(['mail', 'test', to, '--data-dir', coffer.dataDir, '--json'], coffer.env);
  assert.equal(queued.code, 0, queued.stderr);
  return JSON.parse(queued.stdout).mailId;
}

const findMail = (coffer: CofferProcess, mailId: string) =>
  withMailQueue(coffer, ({ mail }) => mail.find(mailId));

async function metric(coffer: CofferProcess, name: string): Promise<number> {
  const text = await (await fetch(`${coffer.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** Issue 23: outgoing mail through a durable queue, against a real SMTP server on loopback. */
describe(`mail delivery (${currentStackName()} stack)`, () => {
  const started: CofferProcess[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const coffer of started) await coffer.stop().catch(() => {});
    for (const close of closers) await close();
  });

  describe('with an SMTP server that offers STARTTLS', () => {
    let coffer: CofferProcess;
    let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
    before(async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'coffer-smtp-'));
      closers.push(() => rm(dir, { recursive: true, force: true }));
      const tls = await makeCertificate(dir, 'smtp');
      receiver = await startSmtpReceiver({ tls, refuse: ['nobody@example.com'] });
      closers.push(receiver.close);
      coffer = await startCofferProcess({
        env: {
          ...quick,
          // The receiver's certificate names localhost; the client must verify it.
          COFFER_SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${receiver.port}/?tls.servername=localhost`,
          COFFER_MAIL_FROM: 'Coffer Test <no-reply@coffer.test>',
          NODE_EXTRA_CA_CERTS: tls.cert,
        },
      });
      started.push(coffer);
    });

    it('sends a queued mail (subject, text, html, From) over STARTTLS, then drops its body', async () => {
      const mail = await withMailQueue(coffer, async ({ mail, projects }) => {
        const project = (await projects.findByName('default'))!;
        const queued: NewMail = toNewMail(
          {
            to: 'ada@example.com',
            subject: 'Reset your password',
            text: 'Open https://coffer.test/reset#token=abc to choose a new password.',
            html: '<p>Open <a href="https://coffer.test/reset#token=abc">this link</a>.</p>',
          },
          { projectId: project.id, purpose: 'password-reset', now: new Date() },
        );
        await mail.enqueue(queued);
        return queued;
      });
      const arrived = await waitUntil(
        () => receiver.received.find((entry) => entry.parsed.subject === 'Reset your password'),
        'the mail at the SMTP server',
      );
      assert.equal(arrived.parsed.text?.trim(), mail.text);
      assert.equal(arrived.parsed.html, mail.html);
      assert.equal(arrived.parsed.from?.text, '"Coffer Test" <no-reply@coffer.test>');
      assert.deepEqual(
        [arrived.parsed.to].flat().map((to) => to?.text),
        ['ada@example.com'],
      );
      assert.equal(arrived.secure, true, 'STARTTLS was offered, so the mail went encrypted');
      assert.equal(arrived.user, 'mailer');
      const stored = await waitUntil(async () => {
        const found = await findMail(coffer, mail.id);
        return found?.status === 'sent' ? found : undefined;
      }, 'the mail marked sent');
      // security: the body held a single-use token; the headers stay for the console.
      assert.equal(stored.text, null);
      assert.equal(stored.html, null);
      assert.equal(stored.subject, 'Reset your password');
      assert.equal(stored.purpose, 'password-reset');
      assert.equal(stored.attempts, 1);
      assert.ok((await metric(coffer, 'coffer_mails_sent_total')) >= 1);
    });

    it('gives up a mail the server refuses for good (550), without a retry, and counts it failed', async () => {
      const mailId = await queueTestMail(coffer, 'nobody@example.com');
      const stored = await waitUntil(async () => {
        const found = await findMail(coffer, mailId);
        return found?.status === 'failed' ? found : undefined;
      }, 'the mail given up');
      // Five retries were left on the schedule: failed after one attempt means never retried.
      assert.equal(stored.attempts, 1);
      assert.match(stored.lastError ?? '', /550/);
      assert.equal(stored.text, null);
      assert.equal(await metric(coffer, 'coffer_mails_failed_total'), 1);
      assert.equal(
        receiver.received.some((entry) => entry.parsed.subject === 'Coffer test mail'),
        false,
      );
    });
  });

  it('retries while the SMTP server is down, and sends once it is up', async () => {
    const port = await freePort();
    const coffer = await startCofferProcess({
      env: { ...quick, COFFER_SMTP_URL: `smtp://127.0.0.1:${port}` },
    });
    started.push(coffer);
    const mailId = await queueTestMail(coffer, 'grace@example.com');
    const failed = await waitUntil(async () => {
      const found = await findMail(coffer, mailId);
      return found && found.attempts >= 1 ? found : undefined;
    }, 'a failed attempt');
    assert.equal(failed.status, 'pending');
    assert.match(failed.lastError ?? '', /ECONNREFUSED|ECONNECTION|ESOCKET/);
    assert.ok(failed.text, 'a mail still to send keeps its body');
    const receiver = await startSmtpReceiver({ port });
    closers.push(receiver.close);
    const arrived = await waitUntil(() => receiver.received[0], 'the mail after the server came up');
    assert.equal(arrived.parsed.subject, 'Coffer test mail');
    assert.deepEqual(
      [arrived.parsed.to].flat().map((to) => to?.text),
      ['grace@example.com'],
    );
    await waitUntil(
      async () => ((await findMail(coffer, mailId))?.status === 'sent' ? true : undefined),
      'sent',
    );
    assert.ok((await metric(coffer, 'coffer_mail_attempt_failures_total')) >= 1);
    assert.equal(await metric(coffer, 'coffer_mail_queue_pending'), 0);
  });

  it('loses no mail to a kill -9: the restarted server sends what was queued', async () => {
    const port = await freePort();
    let coffer = await startCofferProcess({
      env: { ...quick, COFFER_SMTP_URL: `smtp://127.0.0.1:${port}` },
    });
    started.push(coffer);
    // The SMTP server is down until after the kill: nothing can have been sent before it.
    const first = await queueTestMail(coffer, 'one@example.com');
    await waitUntil(async () => ((await findMail(coffer, first))?.attempts ? true : undefined), 'an attempt');
    const second = await queueTestMail(coffer, 'two@example.com');
    await coffer.kill();
    const receiver = await startSmtpReceiver({ port });
    closers.push(receiver.close);
    coffer = await coffer.restart();
    started.push(coffer);
    const recipients = await waitUntil(() => {
      const to = new Set(receiver.received.map((entry) => [entry.parsed.to].flat()[0]?.text));
      return to.has('one@example.com') && to.has('two@example.com') ? to : undefined;
    }, 'both mails after the restart');
    assert.equal(recipients.size, 2);
    for (const mailId of [first, second])
      await waitUntil(
        async () => ((await findMail(coffer, mailId))?.status === 'sent' ? true : undefined),
        `${mailId} marked sent`,
      );
  });

  it('writes mails to the log when no SMTP URL is set', async () => {
    const coffer = await startCofferProcess({ env: { ...quick } });
    started.push(coffer);
    const mailId = await queueTestMail(coffer, 'linus@example.com');
    await coffer.waitForOutput(/mail to linus@example\.com[^\n]*Coffer test mail/);
    assert.match(coffer.output(), /This is a test mail from Coffer \(project default\)/);
    const stored = await waitUntil(async () => {
      const found = await findMail(coffer, mailId);
      return found?.status === 'sent' ? found : undefined;
    }, 'the mail marked sent');
    assert.equal(stored.text, null);
  });
});
