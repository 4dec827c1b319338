import { isIP } from 'node:net';
import { findAddressRefusal } from './address-refused-error.ts';
import { badPorts } from './bad-ports.ts';

/** Where an attempt connects: the parsed URL and its host without IPv6 brackets. */
export type WebhookTarget = { url: URL; hostname: string };

/**
 * The URL to send to, or why it is refused before any DNS lookup: not http(s), credentials in
 * the URL, and unless `allowPrivate` a bad port or a literal non-public IP. Host names are judged
 * later, on the addresses they resolve to (guardLookup).
 */
export function parseWebhookTarget(text: string, allowPrivate: boolean): WebhookTarget | { refusal: string } {
  const url = URL.parse(text);
  if (!url) return { refusal: 'it is not a valid URL' };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { refusal: `the scheme ${url.protocol} is not http: or https:` };
  }
  // Security: `user:pass@` is a classic trick to make a URL read as another host, and secrets
  // do not belong in a stored URL (the receiver authenticates Coffer by the signature).
  if (url.username || url.password) return { refusal: 'the URL carries credentials (user:password@)' };
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (allowPrivate) return { url, hostname };
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (badPorts.has(port)) return { refusal: `port ${port} belongs to a service that is not HTTP` };
  // Node connects to a literal IP without calling `lookup`: the address is checked here.
  const refusal = isIP(hostname) ? findAddressRefusal(hostname) : undefined;
  return refusal ? { refusal } : { url, hostname };
}
