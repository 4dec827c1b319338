import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const run = promisify(execFile);
const clientPackage = path.resolve(import.meta.dirname, '../../packages/client');
/** The npm that runs the tests (npm sets npm_execpath), else the machine's. */
const npm = process.env.npm_execpath ? [process.env.npm_execpath] : [];
const runNpm = (args: string[], cwd: string) =>
  npm.length ? run(process.execPath, [...npm, ...args], { cwd }) : run('npm', args, { cwd });

/** An app outside the repository: its own folder, the packed client installed from the tarball. */
const appScript = `
import { CofferClient } from '@coffer/client';
const [baseUrl, appId, appSecret] = process.argv.slice(2);
const client = new CofferClient({ baseUrl, appId, appSecret });
await client.signup({ email: 'packed@client.example', password: 'correct horse' });
const file = await client.upload('packed/hello.txt', new TextEncoder().encode('hello from a packed client'));
const text = await (await client.download(file._id)).text();
const folder = await client.folders.list('packed/');
const moved = await client.folders.move('packed/', 'moved/');
const deleted = await client.folders.delete('moved/');
console.log(JSON.stringify({ verified: file.verified, text, files: folder.fileCount, moved, deleted }));
`;

let server: TestServer;
let appDir: string;
before(async () => {
  server = await startTestServer();
  appDir = await mkdtemp(path.join(tmpdir(), 'coffer-packed-app-'));
});
after(async () => {
  await server?.stop();
  await rm(appDir, { recursive: true, force: true });
});

it('@coffer/client packs (npm pack builds it) and works installed in a folder outside the repository', async () => {
  await runNpm(['pack', '--pack-destination', appDir], clientPackage);
  const [tarball] = (await readdir(appDir)).filter((name) => name.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote a tarball');
  await writeFile(
    path.join(appDir, 'package.json'),
    JSON.stringify({ name: 'an-app', version: '1.0.0', type: 'module', private: true }),
  );
  // The client has no dependency: the install needs no registry.
  await runNpm(['install', `./${tarball}`, '--offline', '--no-audit', '--no-fund'], appDir);
  await writeFile(path.join(appDir, 'app.js'), appScript);
  const { appId, appSecret } = server.credentials;
  const answer = await run(process.execPath, ['app.js', server.baseUrl, appId, appSecret], { cwd: appDir });
  assert.deepEqual(JSON.parse(answer.stdout), {
    verified: true,
    text: 'hello from a packed client',
    files: 1,
    moved: { moved: 1 },
    deleted: { deleted: 1, bytes: 26 },
  });
});
