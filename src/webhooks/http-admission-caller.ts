import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type {
  AdmissionAnswer,
  AdmissionCall,
  AdmissionCaller,
} from '../domain/admission/admission-caller.ts';
import { guardLookup } from './guarded-lookup.ts';
import { toNetworkErrorText } from './network-error-text.ts';
import { postOnce } from './post-once.ts';
import { toWebhookHeaders } from './webhook-headers.ts';
import { parseWebhookTarget } from './webhook-target.ts';

/** The most of a hook's answer that is read: `{allow, reason, customData}` fits in far less. */
export const maxAdmissionAnswerBytes = 64 * 1024;

/**
 * Asks admission hooks (issue 42, item 3) as webhooks are sent: the same signature (Standard
 * Webhooks), the same guard against private addresses (COFFER_WEBHOOK_ALLOW_PRIVATE), one
 * connection per call, no redirect followed, the answer read up to maxAdmissionAnswerBytes.
 */
export class HttpAdmissionCaller implements AdmissionCaller {
  readonly #allowPrivate: boolean;
  readonly #lookup: LookupFunction;

  constructor(options: { allowPrivate: boolean; dnsLookup?: LookupFunction }) {
    const lookup = options.dnsLookup ?? (dns.lookup as LookupFunction);
    this.#allowPrivate = options.allowPrivate;
    this.#lookup = options.allowPrivate ? lookup : guardLookup(lookup);
  }

  async call(request: AdmissionCall): Promise<AdmissionAnswer> {
    const target = parseWebhookTarget(request.url, this.#allowPrivate);
    if ('refusal' in target) return { error: `refused: ${target.refusal}` };
    let headers: ReturnType<typeof toWebhookHeaders>;
    try {
      headers = toWebhookHeaders(
        {
          url: request.url,
          secrets: [request.secret],
          eventId: request.webhookId,
          attemptedAt: request.attemptedAt,
          body: request.body,
        },
        'Coffer-Admission/1',
      );
    } catch (error) {
      return { error: `cannot sign: ${error instanceof Error ? error.message : String(error)}` };
    }
    const deadline = AbortSignal.timeout(request.timeoutSeconds * 1000);
    try {
      const answer = await postOnce({
        target,
        headers,
        body: request.body,
        lookup: this.#lookup,
        signal: deadline,
        maxResponseBytes: maxAdmissionAnswerBytes,
        keepBytes: maxAdmissionAnswerBytes,
      });
      return { status: answer.status, body: answer.bodyHead };
    } catch (error) {
      return {
        error: deadline.aborted ? `timed out after ${request.timeoutSeconds} s` : toNetworkErrorText(error),
      };
    }
  }
}
