import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
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
    const binDir = path.dirname(process.execPath); // `node` in the script is the pinned one
    // Verbatim: only COFFER_URL differs (npm start listens on 8080, the test on a free port).
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: workDir,
      env: {
        ...process.env,
        PATH: `${binDir}:${process.env.PATH}`,
        COFFER_URL: coffer.baseUrl,
        COFFER_DATA_DIR: '',
      },
    });
    const lines = stdout.split('\n');
    assert.equal(lines.at(-1), '', 'the output ends with a line break');
    assert.equal(lines.at(-2), 'Hello, Coffer!');
    assert.match(stdout, /^ETag: "[0-9a-f]{32}"$/m);
    // One answer per line: every JSON answer parses on its own.
    const answers = lines.filter((line) => line.startsWith('{'));
    assert.equal(answers.length, 5, stdout);
    for (const answer of answers) assert.doesNotThrow(() => JSON.parse(answer), answer);
    assert.deepEqual(await readdir(workDir), ['data'], 'no scratch file left in the working directory');
  } finally {
    await coffer.stop();
    await rm(workDir, { recursive: true, force: true });
  }
});
