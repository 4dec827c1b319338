import dns from 'node:dns';
import type { OutgoingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { WebhookAttempt, WebhookOutcome, WebhookSender } from '../domain/events/webhook-sender.ts';
import { validationFailed } from '../errors/errors.ts';
import { AddressRefusedError } from './address-refused-error.ts';
import { guardLookup } from './guarded-lookup.ts';
import { toNetworkErrorText } from './network-error-text.ts';
import { postOnce } from './post-once.ts';
import { toWebhookHeaders } from './webhook-headers.ts';
import { toWebhookOutcome } from './webhook-outcome.ts';
import { parseWebhookTarget } from './webhook-target.ts';

export type HttpWebhookSenderOptions = {
  /** Lets webhooks reach loopback and private networks (development, tests); off in production. */
  allowPrivate: boolean;
  /** The whole attempt: connect, send and read the answer. */
  timeoutSeconds: number;
  /** How much of an answer's body is read before the connection is dropped (default 64 KiB). */
  maxResponseBytes?: number;
  userAgent?: string;
  /** Resolves host names (default dns.lookup); every address it returns is checked before a connect. */
  dnsLookup?: LookupFunction;
};

/** Sends Standard Webhooks attempts with node:http(s), one connection per attempt. */
export class HttpWebhookSender implements WebhookSender {
  readonly #options: Required<Omit<HttpWebhookSenderOptions, 'dnsLookup'>>;
  readonly #lookup: LookupFunction;

  constructor(options: HttpWebhookSenderOptions) {
    if (!(options.timeoutSeconds > 0)) throw new RangeError('timeoutSeconds must be positive');
    const { dnsLookup = dns.lookup as LookupFunction, ...rest } = options;
    this.#options = { maxResponseBytes: 64 * 1024, userAgent: 'Coffer-Webhooks/1', ...rest };
    this.#lookup = options.allowPrivate ? dnsLookup : guardLookup(dnsLookup);
  }

  async send(attempt: WebhookAttempt, signal?: AbortSignal): Promise<WebhookOutcome> {
    signal?.throwIfAborted();
    const startedAt = performance.now();
    const durationMs = () => Math.round(performance.now() - startedAt);
    const target = parseWebhookTarget(attempt.url, this.#options.allowPrivate);
    if ('refusal' in target) {
      return { kind: 'failed', error: `refused: ${target.refusal}`, durationMs: durationMs() };
    }
    const headers = this.#toHeaders(attempt);
    if (typeof headers === 'string') return { kind: 'failed', error: headers, durationMs: durationMs() };
    const deadline = AbortSignal.timeout(this.#options.timeoutSeconds * 1000);
    try {
      const answer = await postOnce({
        target,
        headers,
        body: attempt.body,
        lookup: this.#lookup,
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        maxResponseBytes: this.#options.maxResponseBytes,
      });
      return toWebhookOutcome(answer, durationMs(), new Date());
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const text = deadline.aborted
        ? `timed out after ${this.#options.timeoutSeconds} s`
        : toNetworkErrorText(error);
      return { kind: 'failed', error: text, durationMs: durationMs() };
    }
  }

  /** The signed headers, or why they cannot be made (a stored secret that is not `whsec_` base64). */
  #toHeaders(attempt: WebhookAttempt): OutgoingHttpHeaders | string {
    try {
      return toWebhookHeaders(attempt, this.#options.userAgent);
    } catch (error) {
      return `cannot sign: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  async assertAllowedTarget(url: string): Promise<void> {
    const target = parseWebhookTarget(url, this.#options.allowPrivate);
    if ('refusal' in target) throw validationFailed(`The webhook URL is not allowed: ${target.refusal}`);
    // The same lookup as at connect time, so creation and delivery judge a host alike.
    await new Promise<void>((resolve, reject) => {
      this.#lookup(target.hostname, { all: true }, (error) => (error ? reject(error) : resolve()));
    }).catch((error: unknown) => {
      const reason =
        error instanceof AddressRefusedError
          ? error.reason
          : `${target.hostname} could not be resolved (${toNetworkErrorText(error)})`;
      throw validationFailed(`The webhook URL is not allowed: ${reason}`);
    });
  }
}
