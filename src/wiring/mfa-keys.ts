import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.ts';
import type { SecretKeys } from '../domain/mfa/secret-box.ts';

/**
 * The keys of TOTP secrets at rest (issue 41), outside the database: COFFER_MFA_KEYS, else
 * `<dataDir>/mfa.key` (one base64 key a line, newest first), created 0600 on first use. Read
 * once per process; a rotation (docs/security.md) takes effect on restart.
 */
export function mfaKeysOf(config: Pick<Config, 'mfaKeys' | 'dataDir'>): SecretKeys {
  // A malformed COFFER_MFA_KEYS stops the start, not the first enrolment.
  let loaded =
    config.mfaKeys !== undefined ? Promise.resolve(parseKeys(config.mfaKeys, 'COFFER_MFA_KEYS')) : undefined;
  return () => {
    loaded ??= readKeyFile(config.dataDir);
    return loaded;
  };
}

function parseKeys(text: string, source: string): Buffer[] {
  const keys = text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => Buffer.from(part, 'base64'));
  if (keys.length === 0 || keys.some((key) => key.length !== 32))
    throw new Error(`${source}: needs base64 keys of 32 bytes each (openssl rand -base64 32)`);
  return keys;
}

async function readKeyFile(dataDir: string): Promise<Buffer[]> {
  const file = path.join(dataDir, 'mfa.key');
  try {
    return parseKeys(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Written whole under another name, then linked: a process starting at the same time either
  // wins the link or reads the winner's complete file (link fails with EEXIST, never half-written).
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
  return parseKeys(await readFile(file, 'utf8'), file);
}
