import assert from 'node:assert/strict';
import { startMailDelivery } from '../../src/start-mail-delivery.ts';
import { type ReceivedMail, startSmtpReceiver } from '../mail/smtp-receiver.ts';
import { startTestServer } from '../support/in-process-server.ts';
import type { ManualClock } from '../support/manual-clock.ts';
import { waitUntil } from '../support/webhook-receiver.ts';

/** Mails the receiver got for one address, oldest first. */
export function mailsTo(received: ReceivedMail[], address: string): ReceivedMail[] {
  return received.filter(
    (mail) => mail.parsed.to && [mail.parsed.to].flat().some((to) => to.text === address),
  );
}

/** Waits for the `count`-th mail to an address (1: the first) and answers it. */
export function waitForMail(received: ReceivedMail[], address: string, count = 1): Promise<ReceivedMail> {
  return waitUntil(() => mailsTo(received, address)[count - 1], `mail ${count} to ${address}`, 30_000);
}

/** The link a mail's text carries, and the token in its fragment. */
export function linkOf(mail: ReceivedMail): { url: string; page: string; token: string } {
  const text = mail.parsed.text ?? '';
  const match = /(https?:\/\/\S+)#token=([A-Za-z0-9_-]+)/.exec(text);
  assert.ok(match, `no link with #token= in: ${text}`);
  return { url: `${match[1]}#token=${match[2]}`, page: match[1]!, token: match[2]! };
}

/** The value of a counter in a /metrics text (0 when the series is absent). */
export async function counterValue(baseUrl: string, series: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * A server whose account mails go, every 20 ms, to a real SMTP server (smtp-server) on loopback,
 * with a generous per-client mail allowance: the mail flows' tests follow links from what it
 * received. `stop` ends the delivery, the server and the receiver.
 */
export async function startMailingServer(clock: ManualClock) {
  const receiver = await startSmtpReceiver();
  const server = await startTestServer(
    {},
    {
      COFFER_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`,
      COFFER_MAIL_DELIVERY_INTERVAL_MS: '20',
      COFFER_ACCOUNT_MAILS_PER_CLIENT_PER_HOUR: '500',
    },
    { clock },
  );
  const delivery = startMailDelivery(server.services, { info() {}, warn() {} });
  return {
    server,
    receiver,
    async stop() {
      await delivery.stop();
      await server.stop();
      await receiver.close();
    },
  };
}
