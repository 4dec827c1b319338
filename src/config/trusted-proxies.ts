import { isIP } from 'node:net';

/**
 * Whose `X-Forwarded-*` headers count (`--trust-proxy`): nobody's; the nearest `hops` proxies
 * (each appends the address it saw to `X-Forwarded-For`, so the client's address is the entry
 * `hops` from the end); or the proxies at these addresses, networks or proxy-addr names
 * (`loopback`, `linklocal`, `uniquelocal`), walking back from the connection while the sender
 * is one of them. security: never an entry a client wrote (issue 25, item 4).
 */
export type TrustedProxies = false | { hops: number } | { addresses: readonly string[] };

/** The most hops a request plausibly crosses (a CDN, a load balancer, nginx…). */
export const maxProxyHops = 10;

const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `--trust-proxy` as given: bare, `true`, `yes` or `on` is one hop (the proxy in front, which
 * is never wrong in the client's favour: too few hops only makes clients share an address, too
 * many lets them choose it); `false`, `no`, `off` or `0` is none; a whole number is that many
 * hops; else a comma-separated list of addresses and networks. Undefined when `raw` is none of these.
 */
export function toTrustedProxies(raw: string | boolean): TrustedProxies | undefined {
  if (typeof raw === 'boolean') return raw && { hops: 1 };
  const value = raw.trim();
  if (/^(true|yes|on)$/i.test(value)) return { hops: 1 };
  if (/^(false|no|off|)$/i.test(value)) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > maxProxyHops) return undefined;
    return hops > 0 && { hops };
  }
  const addresses = value.split(',').map((entry) => entry.trim());
  return addresses.every(isProxyAddress) ? { addresses } : undefined;
}

/** An IP address, a network in CIDR notation, or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
