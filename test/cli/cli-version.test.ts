import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = new URL('../../bin/coffer.js', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
/** The machine's own Node, older than 24 here: the launcher answers --version without the pinned one. */
const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find(existsSync);

it('coffer --version answers the package version, without a warning, on Node 24 and on the system Node', async () => {
  for (const node of [process.execPath, ...(systemNode ? [systemNode] : [])]) {
    const text = await run(node, [bin, '--version']);
    assert.deepEqual([text.stdout, text.stderr], [`coffer ${version}\n`, ''], node);
    const json = await run(node, [bin, '--version', '--json']);
    assert.deepEqual([JSON.parse(json.stdout), json.stderr], [{ version }, ''], node);
    const word = await run(node, [bin, 'version']);
    assert.equal(word.stdout, `coffer ${version}\n`);
  }
});
