import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A self-signed certificate and its key, written by openssl as PEM files in `dir`. */
export async function makeCertificate(
  dir: string,
  name: string,
  options: { dnsName?: string } = {},
): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, `${name}-cert.pem`);
  const key = path.join(dir, `${name}-key.pem`);
  const dnsName = options.dnsName ?? 'localhost';
  await execFileAsync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    `/CN=${dnsName}`,
    '-addext',
    `subjectAltName=DNS:${dnsName}`,
  ]);
  return { cert, key };
}
