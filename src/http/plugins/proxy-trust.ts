import type { TrustedProxies } from '../../config/trusted-proxies.ts';

/** proxy-addr's question: is the sender at `hop` (0: the connection's peer) a trusted proxy? */
type TrustFunction = (address: string, hop: number) => boolean;

/**
 * Fastify's `trustProxy` option for `--trust-proxy`. Addresses go to Fastify as they are
 * (proxy-addr compiles them). Hops become a function: Fastify's own number option trusts no
 * peer at all (it cannot tell a proxy from a client), while proxy-addr walks X-Forwarded-For
 * from its end, so trusting the first `hops` senders makes the client the address the
 * outermost of them appended. security: an entry the client put first is never reached.
 */
export function toProxyTrust(trusted: TrustedProxies): false | string[] | TrustFunction {
  if (trusted === false) return false;
  if ('addresses' in trusted) return [...trusted.addresses];
  const { hops } = trusted;
  return (_address, hop) => hop < hops;
}
