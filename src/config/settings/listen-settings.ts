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
    kind: 'boolean',
    defaultValue: false,
    doc: 'Behind a TLS proxy: require `X-Forwarded-Proto: https` and take the client address from X-Forwarded-For.',
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
