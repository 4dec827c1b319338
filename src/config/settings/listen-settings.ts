import type { Setting } from '../setting.ts';

/** How `serve` listens: address, port, the public URL, TLS, the proxy in front and the worker processes. */
export const listenSettings = {
  host: {
    env: 'COFFER_HOST',
    flag: 'host',
    kind: 'host',
    defaultValue: '127.0.0.1',
    doc: 'Address to listen on. A non-loopback address needs TLS or --trust-proxy.',
  },
  port: {
    env: 'COFFER_PORT',
    flag: 'port',
    kind: 'integer',
    defaultValue: 8080,
    min: 0,
    max: 65535,
    doc: 'TCP port to listen on (0 picks a free port).',
  },
  publicUrl: {
    env: 'COFFER_PUBLIC_URL',
    flag: 'public-url',
    kind: 'base-url',
    doc: 'Base URL clients reach this service at (`https://host[:port][/path]`); signed links are built on it. Default: the listen address; set it whenever clients reach Coffer by another name (a proxy, a non-loopback bind).',
  },
  tlsCert: {
    env: 'COFFER_TLS_CERT',
    flag: 'tls-cert',
    kind: 'string',
    doc: 'PEM certificate file: serve HTTPS directly.',
  },
  tlsKey: {
    env: 'COFFER_TLS_KEY',
    flag: 'tls-key',
    kind: 'string',
    doc: 'PEM private key file for --tls-cert.',
  },
  trustProxy: {
    env: 'COFFER_TRUST_PROXY',
    flag: 'trust-proxy',
    kind: 'proxies',
    defaultValue: false,
    doc: 'Behind TLS proxies: how many are in front (bare: 1, the proxy that connects to Coffer; `2`: a load balancer in front of nginx) or their addresses and networks (`10.0.0.5,10.1.0.0/16`). Requires `X-Forwarded-Proto: https` as the nearest proxy sets it; a client counts by the address that connected to the outermost trusted proxy, never by an X-Forwarded-For entry it wrote (docs/deploy.md).',
  },
  workers: {
    env: 'COFFER_WORKERS',
    flag: 'workers',
    kind: 'integer',
    defaultValue: 1,
    min: 1,
    doc: 'Number of server processes under the supervising primary, which hands them connections and replaces any that dies.',
  },
} as const satisfies Record<string, Setting>;
