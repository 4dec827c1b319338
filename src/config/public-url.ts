import type { X509Certificate } from 'node:crypto';
import type { Config } from './config.ts';
import { formatHost, isLoopback, isUnspecified } from './listen-address.ts';

/** The base URL links are built on once the port is known, and a warning for the log when it is a guess. */
export type PublicUrl = { at(port: number): string; warning?: string };

/**
 * --public-url when given. Otherwise the listen address, which is right only on loopback: on
 * another bind the first name of the TLS certificate (what clients must use to pass its
 * check), or the --host address; and behind a proxy no guess is right. The guesses are logged.
 */
export function resolvePublicUrl(
  config: Pick<Config, 'publicUrl' | 'host' | 'tlsCert' | 'trustProxy'>,
  certificate?: X509Certificate,
): PublicUrl {
  const { publicUrl, host } = config;
  if (publicUrl) return { at: () => publicUrl };
  const scheme = config.tlsCert ? 'https' : 'http';
  const on = (name: string) => (port: number) => new URL(`${scheme}://${formatHost(name)}:${port}`).origin;
  const thisMachine = host === '::' ? '::1' : '127.0.0.1';
  const advice = 'set --public-url (COFFER_PUBLIC_URL) to the URL clients use';
  if (config.trustProxy) {
    return {
      at: on(isUnspecified(host) ? thisMachine : host),
      warning: `--trust-proxy without --public-url: links point at this node, not at the proxy; ${advice}`,
    };
  }
  if (isLoopback(host)) return { at: on(host) };
  const unset = `--host ${host} without --public-url`;
  const certificateName = certificate && toDnsNames(certificate)[0];
  if (certificateName) {
    return {
      at: on(certificateName),
      warning: `${unset}: links are built on the certificate's name ${certificateName}; ${advice}`,
    };
  }
  if (!isUnspecified(host))
    return { at: on(host), warning: `${unset}: links are built on that address; ${advice}` };
  return {
    at: on(thisMachine),
    warning: `${unset}: links are built on ${thisMachine}, which only this machine reaches; ${advice}`,
  };
}

/** The certificate's DNS names, wildcards left out (no client reaches `*.example.com`). */
function toDnsNames(certificate: X509Certificate): string[] {
  return (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:') && !entry.includes('*'))
    .map((entry) => entry.slice('DNS:'.length));
}
