import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { loadConfig } from './config.ts';
import { isConfigError } from './config-error.ts';
import type { Setting } from './setting.ts';
import { settings } from './settings.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'coffer-secret-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const secretFile = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
};

it('every secret-bearing setting is read from the file its COFFER_X_FILE names, without the final line break', () => {
  const values: Record<string, string> = {
    databaseUrl: 'postgres://coffer:s3cret@db.internal:5432/coffer',
    smtpUrl: 'smtp://mailer:pa55@mail.internal:587',
    metricsToken: 'scrape-token',
    mfaKeys: Buffer.alloc(32, 7).toString('base64'),
  };
  const secrets = Object.entries(settings as Record<string, Setting>).filter(([, setting]) => setting.secret);
  // A new secret setting gets its _FILE variable for free; this list says which ones exist.
  assert.deepEqual(secrets.map(([name]) => name).sort(), Object.keys(values).sort());
  const env: NodeJS.ProcessEnv = {};
  for (const [name, setting] of secrets) env[`${setting.env}_FILE`] = secretFile(name, `${values[name]}\n`);
  const config = loadConfig({}, env) as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) assert.equal(config[name], value, name);
});

it('refuses COFFER_X with COFFER_X_FILE, and an unreadable file, naming the variable but never the secret', () => {
  const file = secretFile('token', 'from-the-file');
  assert.throws(
    () => loadConfig({}, { COFFER_METRICS_TOKEN: 'from-env', COFFER_METRICS_TOKEN_FILE: file }),
    (error: Error) =>
      isConfigError(error) &&
      error.message ===
        'COFFER_METRICS_TOKEN_FILE: COFFER_METRICS_TOKEN is set as well; set only one of them',
  );
  const missing = path.join(dir, 'missing');
  assert.throws(
    () => loadConfig({}, { COFFER_SMTP_URL_FILE: missing }),
    (error: Error) =>
      isConfigError(error) &&
      error.message.startsWith(`COFFER_SMTP_URL_FILE=${JSON.stringify(missing)}: ENOENT`),
  );
  // A bad value read from a file is reported by the file's variable, its value hidden.
  assert.throws(
    () => loadConfig({}, { COFFER_DATABASE_URL_FILE: secretFile('bad-url', 'mysql://root:hunter2@db/x') }),
    (error: Error) =>
      isConfigError(error) &&
      error.message.startsWith('COFFER_DATABASE_URL_FILE: unsupported database') &&
      !error.message.includes('hunter2'),
  );
});

it('a flag wins over COFFER_X_FILE, and settings that are not secrets take no _FILE variable', () => {
  const file = secretFile('db-url', 'postgres://coffer:from-file@db/coffer');
  const config = loadConfig({ 'database-url': 'sqlite:/tmp/flag.db' }, { COFFER_DATABASE_URL_FILE: file });
  assert.equal(config.databaseUrl, 'sqlite:/tmp/flag.db');
  assert.equal(loadConfig({}, { COFFER_PORT_FILE: secretFile('port', '9999') }).port, 8080);
});
