import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli, startCofferProcess } from '../support/coffer-process.ts';
import { hasScript, runOnTerminal } from '../support/terminal.ts';
import { prepareTestStack, type TestStack } from '../support/test-stack.ts';

/**
 * Issue 43 item 6: `coffer console` on a fresh install (a new data dir, no operator yet) makes
 * the first operator, from --email or asked on a terminal, instead of failing; without either
 * it says how, in one line.
 */
describe('coffer console on a fresh install', () => {
  const stacks: TestStack[] = [];
  const dataDirs: string[] = [];
  after(async () => {
    for (const stack of stacks) await stack.cleanup();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });
  /** A data dir no command has touched yet, and (on pg-s3) a database no command has touched. */
  const freshInstall = async () => {
    const stack = await prepareTestStack();
    stacks.push(stack);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-fresh-'));
    dataDirs.push(dataDir);
    return { dataDir, env: stack.env };
  };

  it('without --email and no terminal: says how in one line (exit 2); with --email: creates the first operator and its link signs in', async () => {
    const { dataDir, env } = await freshInstall();
    const asked = await runCli(['console', '--data-dir', dataDir], env, { input: '' });
    assert.equal(asked.code, 2, asked.stderr);
    assert.match(
      asked.stderr,
      /No operator yet: `coffer console --email you@example.com` creates the first one/,
    );

    const made = await runCli(
      ['console', '--data-dir', dataDir, '--email', 'First@Example.com', '--json'],
      env,
    );
    assert.equal(made.code, 0, made.stderr);
    const link = JSON.parse(made.stdout);
    assert.equal(link.email, 'first@example.com');
    assert.equal(link.created, true);
    const listed = await runCli(['operator', 'list', '--data-dir', dataDir, '--json'], env);
    assert.deepEqual(
      JSON.parse(listed.stdout).operators.map((operator: { email: string }) => operator.email),
      ['first@example.com'],
    );

    // The link signs in on the server of that data dir; the next `coffer console` reuses the operator.
    const coffer = await startCofferProcess({ dataDir, env });
    try {
      const again = await runCli(['console', '--data-dir', dataDir, '--json'], env);
      assert.equal(again.code, 0, again.stderr);
      const second = JSON.parse(again.stdout);
      assert.equal(second.created, false);
      assert.ok(second.url.startsWith(coffer.baseUrl), second.url);
      const token = new URL(second.url).hash.replace('#token=', '');
      const signedIn = await fetch(`${coffer.baseUrl}/console/api/session/link`, {
        method: 'POST',
        headers: { 'x-coffer-console': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      assert.equal(signedIn.status, 200);
      assert.equal((await signedIn.json()).operator.email, 'first@example.com');
    } finally {
      await coffer.stop();
    }
  });

  it('on a terminal: asks for the email of the first operator and creates it', {
    skip: !hasScript && 'util-linux script is not installed',
  }, async () => {
    const { dataDir, env } = await freshInstall();
    const typed = await runOnTerminal(['console', '--data-dir', dataDir], env, [
      ['Email of the first operator: ', 'ops@fresh.example'],
    ]);
    assert.equal(typed.code, 0, typed.screen);
    assert.match(typed.screen, /Created the first operator, ops@fresh\.example/);
    assert.match(typed.screen, /\/console\/sign-in#token=/);
  });
});
