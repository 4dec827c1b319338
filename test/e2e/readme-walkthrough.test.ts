import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { startCofferProcess } from '../support/coffer-process.ts';

const run = promisify(execFile);

it('the README walkthrough works verbatim against coffer serve', async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const script = /## Walkthrough with curl[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(script, 'README has a walkthrough script');
  const workDir = await mkdtemp(path.join(tmpdir(), 'coffer-readme-'));
  // The walkthrough runs where `npm start` runs: ./data is the server's data dir.
  const coffer = await startCofferProcess({ dataDir: path.join(workDir, 'data') });
  try {
    // Only the port differs: npm start uses 8080, the test a free one.
    const adapted = script.replace('B=http://127.0.0.1:8080', `B=${coffer.baseUrl}`);
    assert.notEqual(adapted, script);
    const binDir = path.dirname(process.execPath); // `node` in the script is the pinned one
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', adapted], {
      cwd: workDir,
      env: { ...process.env, PATH: `${binDir}:${process.env.PATH}` },
    });
    assert.match(stdout, /Hello, Coffer!\n$/);
    assert.match(stdout, /ETag: "[0-9a-f]{32}"/);
  } finally {
    await coffer.stop();
    await rm(workDir, { recursive: true, force: true });
  }
});
