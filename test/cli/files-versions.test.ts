import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

// coffer files versions and files restore --version-id (issue 38), through the real process
// against a running `coffer serve`.
describe('coffer files versions|restore, against a running server', () => {
  let coffer: CofferProcess;
  let scratch: string;
  let env: Record<string, string>;
  let token: string;
  before(async () => {
    coffer = await startCofferProcess();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-versions-cli-'));
    const ada = await coffer.client.signup('ada@versions-cli.example');
    token = ada.token;
    env = {
      COFFER_CREDENTIALS_FILE: path.join(scratch, 'credentials.json'),
      COFFER_APP_SECRET: coffer.credentials.appSecret,
    };
    const login = await runCli(
      [
        'login',
        '--url',
        coffer.baseUrl,
        '--app-id',
        coffer.credentials.appId,
        '--email',
        ada.email,
        '--password-stdin',
      ],
      env,
      { input: ada.password, timeoutMs: 60_000 },
    );
    assert.equal(login.code, 0, login.stderr);
  });
  after(async () => {
    await coffer.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists a file’s versions and restores an earlier one', async () => {
    const file = await coffer.client.uploadFile(token, 'plan.txt', 'plan A');
    const requested = await coffer.client.call('POST', `/api/v1/file/${file._id}/versions`, {
      token,
      body: {},
    });
    const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'plan B' });
    const verified = await coffer.client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);

    const listed = await runCli(['files', 'versions', file._id, '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const { versions } = JSON.parse(listed.stdout);
    assert.deepEqual(
      versions.map((v: { versionId: string; current: boolean }) => [v.versionId, v.current]),
      [
        [verified.body.versionId, true],
        [file._id, false],
      ],
    );
    const text = await runCli(['files', 'versions', file._id], env);
    assert.match(text.stdout, new RegExp(`^\\* ${verified.body.versionId} `));

    const restored = await runCli(['files', 'restore', file._id, '--version-id', file._id, '--json'], env);
    assert.equal(restored.code, 0, restored.stderr);
    const record = JSON.parse(restored.stdout);
    assert.equal(record.etag, file.etag, 'the first version’s bytes are current again');
    // Without --version-id, restore takes the file from the trash: a live one is not there.
    const notTrashed = await runCli(['files', 'restore', file._id], env);
    assert.equal(notTrashed.code, 1, notTrashed.stderr);
    assert.match(notTrashed.stderr, /FILE_NOT_FOUND/);
  });
});
