import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

describe('coffer app create | list | revoke, with a server running on the same data', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer.stop());
  const cli = (...args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);
  const json = async (...args: string[]) => {
    const result = await cli(...args, '--json');
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  };
  const profileStatus = async (client: ApiClient, token: string) =>
    (await client.call('GET', '/api/v1/user', { token })).body?.code ?? 200;

  it('create answers a second live credential; both work, and list shows ids, never secrets', async () => {
    const { projectId, appId, appSecret } = await json('app', 'create', '--project', 'default');
    assert.equal(projectId, coffer.credentials.projectId);
    assert.match(appSecret, /^[A-Za-z0-9_-]{43}$/);
    const second = new ApiClient(coffer.baseUrl, { projectId, appId, appSecret });
    // A token from either credential works with the other: tokens belong to the project.
    const { token } = await second.signup();
    assert.equal(await profileStatus(second, token), 200);
    assert.equal(await profileStatus(coffer.client, token), 200);
    const listed = await cli('app', 'list', '--project', projectId, '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout).apps.map((app: { appId: string }) => app.appId),
      [coffer.credentials.appId, appId],
    );
    assert.doesNotMatch(listed.stdout, /secret|hash/i);
    const text = await cli('app', 'list', '--project', 'default');
    assert.match(text.stdout, new RegExp(appId));
  });

  it('revoke refuses the credential at once on the running server; the last one needs --force', async () => {
    const { token } = await coffer.client.signup();
    const { appId, appSecret } = await json('app', 'create', '--project', 'default');
    const fresh = new ApiClient(coffer.baseUrl, { ...coffer.credentials, appId, appSecret });
    const before = await json('app', 'list', '--project', 'default');
    for (const { appId: old } of before.apps) {
      if (old === appId) continue;
      assert.deepEqual(await json('app', 'revoke', '--project', 'default', old), {
        projectId: coffer.credentials.projectId,
        appId: old,
        revoked: true,
      });
    }
    // The epoch re-read (250 ms) may still let an in-flight request through: wait for it.
    for (const deadline = Date.now() + 10_000; ; ) {
      if ((await profileStatus(coffer.client, token)) === 'INVALID_APP_CREDENTIALS') break;
      assert.ok(Date.now() < deadline, 'the revoked credential still works');
    }
    assert.equal(await profileStatus(fresh, token), 200);
    // The default credentials file names the revoked credential now; the operator uses the new one.
    const file = JSON.parse(await readFile(path.join(coffer.dataDir, 'default-project.json'), 'utf8'));
    assert.equal(file.appId, coffer.credentials.appId);

    const last = await cli('app', 'revoke', '--project', 'default', appId, '--json');
    assert.equal(last.code, 2, last.stderr);
    assert.equal(JSON.parse(last.stdout).code, 'VALIDATION_FAILED');
    assert.match(last.stderr, /last app credential.*--force/);
    assert.equal(await profileStatus(fresh, token), 200, 'a refused revoke changes nothing');

    const unknown = await cli('app', 'revoke', '--project', 'default', 'no-such-app', '--json');
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.equal(JSON.parse(unknown.stdout).code, 'NOT_FOUND');

    await json('app', 'revoke', '--project', 'default', appId, '--force');
    assert.deepEqual((await json('app', 'list', '--project', 'default')).apps, []);
    // An operator who lost every secret gets access again with a new credential.
    const regained = await json('app', 'create', '--project', 'default');
    const client = new ApiClient(coffer.baseUrl, { ...coffer.credentials, ...regained });
    assert.equal(await profileStatus(client, token), 200);
  });

  it('wrong invocations exit 2 and name what to fix', async () => {
    for (const [args, names] of [
      [['app', 'create'], /--project/],
      [['app', 'revoke', '--project', 'default'], /<appId>/],
      [['app', 'list', '--project', 'default', 'extra'], /extra/],
      [['app', 'create', '--project', 'default', '--force'], /--force/],
    ] as const) {
      const result = await cli(...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, names);
    }
    // A project that does not exist is no mistake in the invocation: NOT_FOUND, exit 1, as in
    // every command.
    const unknown = await cli('app', 'create', '--project', 'no-such-project', '--json');
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.equal(JSON.parse(unknown.stdout).code, 'NOT_FOUND');
  });
});
