import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

/**
 * Issue 35: service keys, the server-only credential that administers a project, made and
 * revoked by an operator with the CLI while a server runs on the same data.
 */
describe('coffer project key create | list | revoke, with a server running on the same data', () => {
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
  const auditStatus = async (serviceKey: string) => {
    const answer = await coffer.client.call('GET', '/api/v1/audit', { serviceKey });
    return answer.body?.code ?? answer.status;
  };

  it('create shows the key once; list names keys, never the key or its hash; names are checked', async () => {
    const created = await json('project', 'key', 'create', 'default', '--name', 'backend');
    assert.equal(created.projectId, coffer.credentials.projectId);
    assert.equal(created.name, 'backend');
    assert.match(created.key, /^csk_[A-Za-z0-9_-]{43}$/);
    const listed = await cli('project', 'key', 'list', 'default', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout).keys.map((key: { name: string }) => key.name),
      ['backend'],
    );
    assert.ok(!listed.stdout.includes(created.key.slice(4)), 'the key is never shown again');
    assert.doesNotMatch(listed.stdout, /hash/i);
    const text = await cli('project', 'key', 'create', 'default', '--name', 'shown-as-text');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /key: csk_/);

    const taken = await cli('project', 'key', 'create', 'default', '--name', 'backend', '--json');
    assert.equal(taken.code, 2, taken.stderr);
    assert.equal(JSON.parse(taken.stdout).code, 'VALIDATION_FAILED');
    const badName = await cli('project', 'key', 'create', 'default', '--name', 'Not A Name', '--json');
    assert.equal(badName.code, 2, badName.stderr);
    const noName = await cli('project', 'key', 'create', 'default', '--json');
    assert.equal(noName.code, 2, noName.stderr);
    assert.match(noName.stderr, /--name is required/);
    const badAction = await cli('project', 'key', 'rotate', 'default', '--json');
    assert.equal(badAction.code, 2, badAction.stderr);
  });

  it('a key administers the project as itself: the audit log names it; the app secret alone does not', async () => {
    const { key } = await json('project', 'key', 'create', 'default', '--name', 'janitor');
    const user = await coffer.client.signup();
    const file = await coffer.client.uploadFile(user.token, 'keys/doomed.txt', 'doomed');
    const deleted = await coffer.client.call('DELETE', `/api/v1/file/${file._id}`, { serviceKey: key });
    assert.equal(deleted.status, 204, deleted.text);
    const page = await coffer.client.call('GET', `/api/v1/audit?type=file.deleted&fileId=${file._id}`, {
      serviceKey: key,
    });
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(
      page.body.events.map((event: { actor: { kind: string; id: string } }) => event.actor),
      // A key has no email: its name names it (issue 43).
      [
        {
          kind: 'service-key',
          id: 'janitor',
          ip: '127.0.0.1',
          userAgent: 'node',
          email: null,
          name: 'janitor',
        },
      ],
    );
    const secretOnly = await coffer.client.call('GET', '/api/v1/audit');
    assert.equal(secretOnly.status, 401, secretOnly.text);
    // A key owns no files: an upload request with it is refused, and nothing is created.
    const upload = await coffer.client.call('POST', '/api/v1/file', {
      serviceKey: key,
      body: { filePath: 'keys/mine.txt' },
    });
    assert.equal(upload.status, 403, upload.text);
    assert.equal(upload.body.code, 'ACCESS_DENIED');
  });

  it('revoke refuses the key at once on the running server; an unknown name is NOT_FOUND', async () => {
    const { key } = await json('project', 'key', 'create', 'default', '--name', 'leaked');
    assert.equal(await auditStatus(key), 200);
    assert.deepEqual(await json('project', 'key', 'revoke', 'default', '--name', 'leaked'), {
      projectId: coffer.credentials.projectId,
      name: 'leaked',
      revoked: true,
    });
    // The epoch re-read (250 ms) may still let an in-flight request through: wait for it.
    for (const deadline = Date.now() + 10_000; ; ) {
      if ((await auditStatus(key)) === 'INVALID_TOKEN') break;
      assert.ok(Date.now() < deadline, 'the revoked key still works');
    }
    const unknown = await cli('project', 'key', 'revoke', 'default', '--name', 'leaked', '--json');
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.equal(JSON.parse(unknown.stdout).code, 'NOT_FOUND');
    const names = (await json('project', 'key', 'list', 'default')).keys.map((k: { name: string }) => k.name);
    assert.ok(!names.includes('leaked'));
  });
});
