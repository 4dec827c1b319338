import assert from 'node:assert/strict';
import type { ReceivedMail } from '../mail/smtp-receiver.ts';
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
