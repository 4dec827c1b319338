import { isIP, type LookupFunction } from 'node:net';
import { newWebhookSecret } from '../../src/domain/events/webhook-secret.ts';
import type { WebhookAttempt } from '../../src/domain/events/webhook-sender.ts';
import { newId } from '../../src/domain/ids.ts';

/** An attempt of a small JSON body to `url`, signed with fresh secrets unless given. */
export function attemptTo(url: string, secrets: string[] = [newWebhookSecret()]): WebhookAttempt {
  const body = JSON.stringify({
    type: 'file.created',
    timestamp: new Date().toISOString(),
    data: { fileId: newId(), filePath: 'reports/été ✓.pdf' },
  });
  return { url, secrets, eventId: `msg_${newId()}`, attemptedAt: new Date(), body };
}

/** A stand-in DNS: each call answers the next of `answers` (the last one again after that). */
export function answering(answers: Array<string | string[]>): LookupFunction {
  let calls = 0;
  return (_hostname, _options, callback) => {
    const answer = answers[Math.min(calls++, answers.length - 1)] ?? [];
    const addresses = [answer].flat().map((address) => ({ address, family: isIP(address) }));
    callback(null, addresses);
  };
}
