/**
 * Issue 44 item 7: a server, each of its workers and every test server pay at start only for
 * what serving needs. The packages of capabilities that may never be used (passkeys, provider
 * sign-in, SMTP, renders, S3, TOTP enrolment, pretty logs, the common-password list) are loaded on first use. The test
 * checks what a start loaded (every module URL, recorded by test/support/record-loaded-modules.ts),
 * never how long it took.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const hook = path.join(root, 'test', 'support', 'record-loaded-modules.ts');
const execFileAsync = promisify(execFile);

/** Loaded on first use, never at start on SQLite and disk. */
const firstUse = [
  /\/node_modules\/@simplewebauthn\//,
  /\/node_modules\/undici\//,
  /\/node_modules\/nodemailer\//,
  /\/node_modules\/sharp\//,
  /\/node_modules\/@aws-sdk\//,
  /\/node_modules\/qrcode\//,
  /\/node_modules\/pino-pretty\//,
  /\/node_modules\/pg\//,
  /\/node_modules\/@zxcvbn-ts\//,
];

// What a worker does at start: build the services over a fresh data dir, build the app, listen.
const startAndStop = `
const { loadConfig } = await import(${JSON.stringify(path.join(root, 'src/config/config.ts'))});
const { buildServices } = await import(${JSON.stringify(path.join(root, 'src/services.ts'))});
const { buildApp } = await import(${JSON.stringify(path.join(root, 'src/app.ts'))});
const config = loadConfig({ 'data-dir': process.env.DATA_DIR, port: '0', 'smtp-url': 'smtp://127.0.0.1:9' }, {});
const services = await buildServices(config);
const app = await buildApp(services, { logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
await app.close();
await services.close();
`;

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'coffer-start-loading-'));
});
after(() => rm(dir, { recursive: true, force: true }));

describe('what a server loads at start', () => {
  it('loads the server and its stores, and none of the packages of capabilities used on demand', async () => {
    const file = path.join(dir, 'loaded.txt');
    await execFileAsync(process.execPath, ['--import', hook, '--input-type=module', '--eval', startAndStop], {
      env: { ...process.env, DATA_DIR: path.join(dir, 'data'), COFFER_LOADED_MODULES_FILE: file },
      cwd: dir,
    });
    const loaded = (await readFile(file, 'utf8')).split('\n');
    // The hook saw the start: the server and its database were loaded.
    assert.ok(
      loaded.some((url) => /\/node_modules\/fastify\//.test(url)),
      'fastify was loaded',
    );
    assert.ok(
      loaded.some((url) => /\/node_modules\/kysely\//.test(url)),
      'kysely was loaded',
    );
    assert.ok(
      loaded.some((url) => url.endsWith('/src/services.ts')),
      'the services were built',
    );
    const found = loaded.filter((url) => firstUse.some((pattern) => pattern.test(url)));
    assert.deepEqual(
      found.slice(0, 5),
      [],
      `the start loaded ${found.length} modules of capabilities unused yet`,
    );
  });
});
