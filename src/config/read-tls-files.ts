import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, toFileErrorReason } from './config-error.ts';

/** The PEM files of --tls-cert and --tls-key, and the certificate they hold. */
export type TlsFiles = { cert: Buffer; key: Buffer; certificate: X509Certificate };

/**
 * Reads --tls-cert and --tls-key at start, before anything listens or forks: a missing file,
 * a swapped pair or the key of another certificate stops the start with one line naming the
 * file, instead of a TLS library's error on the first connection (or in every worker).
 */
export function readTlsFiles(config: { tlsCert?: string; tlsKey?: string }): TlsFiles | undefined {
  if (!config.tlsCert || !config.tlsKey) return undefined;
  const certFile = `--tls-cert ${config.tlsCert}`;
  const keyFile = `--tls-key ${config.tlsKey}`;
  const cert = readPem(config.tlsCert, certFile);
  const key = readPem(config.tlsKey, keyFile);
  const certificate = toCertificate(cert);
  if (!certificate) {
    const swapped = toPrivateKey(cert) ? ' but a private key: are --tls-cert and --tls-key swapped?' : '';
    throw new ConfigError(`${certFile}: not a PEM certificate${swapped}`);
  }
  const privateKey = toPrivateKey(key);
  if (!privateKey) {
    const why = toCertificate(key)
      ? ' but a certificate: are --tls-cert and --tls-key swapped?'
      : ' (an unencrypted PEM key is needed)';
    throw new ConfigError(`${keyFile}: not a PEM private key${why}`);
  }
  if (!certificate.checkPrivateKey(privateKey))
    throw new ConfigError(`${keyFile}: not the private key of the certificate in ${config.tlsCert}`);
  return { cert, key, certificate };
}

function readPem(file: string, label: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ConfigError(`${label}: cannot read it (${toFileErrorReason(error)})`);
  }
}

function toCertificate(pem: Buffer): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

function toPrivateKey(pem: Buffer): KeyObject | undefined {
  try {
    return createPrivateKey(pem);
  } catch {
    return undefined;
  }
}
