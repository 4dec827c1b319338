import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { uploadResumeFilePath } from '../../src/cli/upload-resume-file.ts';
import { runCli } from '../support/coffer-process.ts';
import { startHoldingProxy } from '../support/holding-proxy.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const bin = path.resolve(import.meta.dirname, '../../bin/coffer.js');
const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

type StderrEvent = { event: string; offsetBytes?: number; done?: number; bytes?: number; total?: number };
const stderrEvents = (stderr: string): StderrEvent[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as StderrEvent);

// Issue 20, "Clients": `coffer files upload` run again on the same file after an interruption
// goes on where the server stopped.
describe('coffer files upload resumes an interrupted upload when run again', () => {
  let server: TestServer;
  let scratch: string;
  let env: Record<string, string>;

  before(async () => {
    server = await startTestServer();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-upload-resume-'));
    const password = 'a long enough passphrase 42';
    await server.client.signup('traveller@example.com', password);
    env = {
      COFFER_CREDENTIALS_FILE: path.join(scratch, 'config', 'credentials.json'),
      COFFER_APP_SECRET: server.credentials.appSecret,
    };
    const login = await runCli(
      [
        'login',
        '--url',
        server.baseUrl,
        '--app-id',
        server.credentials.appId,
        '--email',
        'traveller@example.com',
        '--password-stdin',
      ],
      env,
      { input: `${password}\n` },
    );
    assert.equal(login.code, 0, login.stderr);
  });
  after(async () => {
    await server?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('Ctrl-C mid-upload, then the same command: it starts past 0 and the file verifies', async () => {
    const local = path.join(scratch, 'trip.mp4');
    const content = randomBytes(24 * MiB + 5);
    await writeFile(local, content);
    // The upload's bytes go through a proxy that stalls after 12 MiB: the first 8 MiB chunk
    // is kept, the second hangs, and the command is interrupted there.
    const proxy = await startHoldingProxy(server.baseUrl, 12 * MiB);
    server.services.publicUrl.value = proxy.origin;
    const args = ['files', 'upload', local, '--path', 'videos/trip.mp4', '--json'];
    try {
      const child = spawn(process.execPath, [bin, ...args], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.resume();
      const exited = once(child, 'exit');
      await Promise.race([
        proxy.held,
        exited.then(() => assert.fail(`the upload ended before it was interrupted: ${stderr}`)),
      ]);
      child.kill('SIGINT');
      const [code, signal] = await exited;
      assert.deepEqual([code, signal], [null, 'SIGINT']);

      const stateFile = uploadResumeFilePath(env.COFFER_CREDENTIALS_FILE!);
      assert.equal((await stat(stateFile)).mode & 0o777, 0o600);
      const states = Object.values(JSON.parse(await readFile(stateFile, 'utf8')));
      assert.equal(states.length, 1);
      const { resumableUrl } = states[0] as { resumableUrl: string };
      assert.ok(!JSON.stringify(states).includes('token'), 'no token kept beside the state');
      proxy.release(); // the interrupted chunk's connection ends at the server
      const head = await fetch(resumableUrl, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
      const kept = Number(head.headers.get('upload-offset'));
      assert.ok(kept >= 8 * MiB, `the first chunk is kept (${kept})`);

      const again = await runCli(args, env);
      assert.equal(again.code, 0, again.stderr);
      const events = stderrEvents(again.stderr);
      const resumed = events.find((event) => event.event === 'resume');
      assert.ok(resumed?.offsetBytes !== undefined && resumed.offsetBytes >= kept, again.stderr);
      const last = events.filter((event) => event.event === 'progress').at(-1);
      assert.equal(last?.done, content.length);
      assert.equal(last?.bytes, content.length - resumed.offsetBytes, 'only the rest was sent');

      const file = JSON.parse(again.stdout.trim().split('\n').at(-1)!);
      assert.equal(file.verified, true);
      assert.equal(file.meta.ChecksumSHA256, sha256(content));
      const out = path.join(scratch, 'downloaded.mp4');
      const download = await runCli(['files', 'download', file._id, '--out', out], env);
      assert.equal(download.code, 0, download.stderr);
      assert.equal(sha256(await readFile(out)), sha256(content));
      await assert.rejects(stat(stateFile), { code: 'ENOENT' }, 'no unfinished upload left');
    } finally {
      server.services.publicUrl.value = server.baseUrl;
      await proxy.stop();
    }
  });
});
