import type { Agent } from 'undici';
import { guardLookup } from '../webhooks/guarded-lookup.ts';
import { parseWebhookTarget } from '../webhooks/webhook-target.ts';

export type ProviderFetchOptions = {
  /** Lets providers on loopback and private networks be reached (tests, an in-house IdP); off by default. */
  allowPrivate: boolean;
  /** One call to a provider: connect, send and read the answer. */
  timeoutSeconds: number;
};

/** A fetch for identity providers, the shape openid-client's customFetch takes. */
export type ProviderFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Calls to identity providers go through the webhooks' SSRF guard (issue 37): no credentials in
 * the URL, no bad port, and every address a host resolves to must be public unless
 * `allowPrivate` (COFFER_OAUTH_ALLOW_PRIVATE); each call has a deadline, so a provider that is
 * down costs one sign-in a timeout and no other request anything.
 */
export function createProviderFetch(options: ProviderFetchOptions): ProviderFetch {
  const timeoutMs = options.timeoutSeconds * 1000;
  // Made by the first call: the undici package (about 0.2 s of CPU to load) is loaded only by a
  // process that talks to a provider, not by every worker and test server that could.
  let dispatcher: Promise<Agent> | undefined;
  const openDispatcher = async () => {
    const { Agent } = await import('undici');
    return new Agent({
      connect: { timeout: timeoutMs, ...(options.allowPrivate ? {} : { lookup: guardLookup() }) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  };
  return async (url, init) => {
    dispatcher ??= openDispatcher();
    const target = parseWebhookTarget(url, options.allowPrivate);
    if ('refusal' in target) throw new Error(`the provider's URL is refused: ${target.refusal}`);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    // Node's fetch takes an undici dispatcher (its own fetch is undici's).
    return fetch(url, { ...init, redirect: 'manual', signal, dispatcher: await dispatcher } as RequestInit);
  };
}
