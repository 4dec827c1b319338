import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');

it('npm start under a supervisor: SIGTERM to npm reaches the server, which drains and exits', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-npm-start-'));
  // A supervisor (systemd, a container runtime) signals the process it started: npm here.
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, COFFER_DATA_DIR: dataDir, COFFER_PORT: '0', COFFER_LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: whatever happens, the finally below ends everything it started.
    detached: true,
  });
  let output = '';
  npm.stdout.on('data', (chunk) => (output += chunk));
  npm.stderr.on('data', (chunk) => (output += chunk));
  const exited = once(npm, 'exit');
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not get ready:\n${output}`)), 90_000);
      const poll = setInterval(() => {
        const match = /Coffer ready at (http[^\s";]+)/.exec(output);
        if (!match?.[1]) return;
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      }, 50);
    });
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    npm.kill('SIGTERM');
    await exited;
    assert.match(output, /shutting down: draining workers/);
    assert.match(output, /worker \d+ stopped \(code 0\)/);
    await assert.rejects(fetch(`${url}/healthz`), 'nothing listens any more');
  } finally {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // the group is gone: everything exited
    }
    await rm(dataDir, { recursive: true, force: true });
  }
});
