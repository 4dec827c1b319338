/**
 * Issue 43 item 5: `coffer files share <path> --email <address>` shares a file, named by its
 * path, with the project's user of that email; an email no user has is a value to fix (exit 2,
 * one line naming it); --permission takes read, the one thing a share grants.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loginWithCli } from '../support/cli-login.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

describe('coffer files share <path> --email, against a running server', () => {
  let coffer: CofferProcess;
  let scratch: string;
  let env: Record<string, string>;
  let bob: Awaited<ReturnType<CofferProcess['client']['signup']>>;
  let fileId: string;
  /** `coffer files share <target> --email <email> …` as Ada. */
  const share = (target: string, email: string, ...more: string[]) =>
    runCli(['files', 'share', target, '--email', email, ...more], env);

  before(async () => {
    coffer = await startCofferProcess();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-share-email-'));
    const ada = await coffer.client.signup('ada@share-email.example');
    bob = await coffer.client.signup('bob@share-email.example');
    fileId = (await coffer.client.uploadFile(ada.token, 'reports/q3.txt', 'numbers'))._id;
    await coffer.client.uploadFile(ada.token, 'reports/q3.txt.bak', 'older numbers');
    env = await loginWithCli(coffer, ada, scratch);
  });
  after(async () => {
    await coffer.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('shares the file at a path with the user of an email (any case); the grantee reads it', async () => {
    const shared = await share('reports/q3.txt', 'BOB@share-email.example', '--json');
    assert.equal(shared.code, 0, shared.stderr);
    const file = JSON.parse(shared.stdout);
    assert.equal(file._id, fileId, 'the file at exactly that path, not q3.txt.bak');
    assert.ok(
      file.acl.some((entry: { scope: string; identifier: string }) => entry.identifier === bob.userId),
      JSON.stringify(file.acl),
    );
    const read = await coffer.client.call('GET', `/api/v1/file/${fileId}`, { token: bob.token });
    assert.equal(read.status, 200, read.text);
    const text = await share(fileId, bob.email, '--permission', 'read');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^reports\/q3\.txt \(\S+\) is shared with: /);
  });

  it('an email no user of the project has exits 2 with one line naming it', async () => {
    const unknown = await share('reports/q3.txt', 'nobody@share-email.example');
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(
      unknown.stderr,
      /^coffer: --email nobody@share-email\.example: no user of this project has this email/,
    );
    assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
    const json = await share('reports/', 'nobody@share-email.example', '--json');
    assert.equal(json.code, 2, json.stderr);
    assert.equal(JSON.parse(json.stdout).code, 'INVALID_INVOCATION');
  });

  it('--permission other than read exits 2, sharing nothing', async () => {
    const write = await share('reports/q3.txt', bob.email, '--permission', 'write');
    assert.equal(write.code, 2, write.stderr);
    assert.match(write.stderr, /--permission write: a share lets the grantee read/);
  });
});
