import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { prepareTestStack, type TestStack } from '../support/test-stack.ts';

describe('coffer command line (DESIGN §6), with a server running on the same data', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer.stop());
  const cli = (...args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);

  it('serve created the default project and its credentials file (mode 0600)', async () => {
    const info = await stat(path.join(coffer.dataDir, 'default-project.json'));
    assert.equal(info.mode & 0o777, 0o600);
    assert.match(coffer.output(), /created project \\"default\\"/);
    assert.equal((await fetch(`${coffer.baseUrl}/healthz`)).status, 200);
  });

  it('project create --json → {projectId, appId, appSecret}, usable at once by the running server', async () => {
    const created = await cli('project', 'create', 'mobile', '--origin', 'https://app.example.com', '--json');
    assert.equal(created.code, 0, created.stderr);
    const project = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(project).sort(), ['appId', 'appSecret', 'projectId']);
    const api = new ApiClient(coffer.baseUrl, project);
    const user = await api.signup('cli@example.com');
    assert.equal((await api.call('GET', '/api/v1/user', { token: user.token })).status, 200);
    // The allowed origin works without the secret.
    const browser = await fetch(`${coffer.baseUrl}/api/v1/user`, {
      headers: {
        'sb-app-id': project.appId,
        origin: 'https://app.example.com',
        authorization: `Bearer ${user.token}`,
      },
    });
    assert.equal(browser.status, 200);
    assert.equal(browser.headers.get('access-control-allow-origin'), 'https://app.example.com');
    const preflight = await fetch(`${coffer.baseUrl}/api/v1/file`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'sb-app-id,authorization,content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /sb-app-id/);
    const evil = await fetch(`${coffer.baseUrl}/api/v1/file`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });
    assert.equal(evil.headers.get('access-control-allow-origin'), null);
  });

  it('user create --json → {userId}; the user can log in; set-role and disable act at once', async () => {
    const created = await cli(
      'user',
      'create',
      '--project',
      coffer.credentials.projectId,
      '--email',
      'admin@example.com',
      '--password',
      'admin password',
      '--role',
      'admin',
      '--json',
    );
    assert.equal(created.code, 0, created.stderr);
    const { userId } = JSON.parse(created.stdout);
    assert.match(userId, /^[A-Za-z0-9_-]{22}$/);
    const login = await coffer.client.call('POST', '/api/v1/auth/login', {
      body: { email: 'admin@example.com', password: 'admin password' },
    });
    assert.equal(login.body.userId, userId);
    const profile = () => coffer.client.call('GET', '/api/v1/user', { token: login.body.token });
    assert.equal((await profile()).body.role, 'admin');
    const setRole = await cli('user', 'set-role', '--project', 'default', userId, 'auditor');
    assert.equal(setRole.code, 0, setRole.stderr);
    assert.equal((await profile()).body.role, 'auditor');
    assert.equal((await cli('user', 'disable', '--project', 'default', userId)).code, 0);
    assert.equal((await profile()).body.code, 'ACCOUNT_DISABLED');
  });

  it('errors: common password, duplicate email, unknown user (USER_NOT_FOUND), unknown command', async () => {
    const create = (password: string) => [
      'user',
      'create',
      '--project',
      'default',
      '--email',
      'dup@example.com',
      '--password',
      password,
      '--json',
    ];
    // The password policy of signup: one of the most common passwords is refused, in any case.
    const common = await cli(...create('PASSWORD1'));
    assert.equal(common.code, 2, 'a bad input, as every VALIDATION_FAILED');
    assert.equal(JSON.parse(common.stdout).code, 'VALIDATION_FAILED');
    const args = create('dup password here');
    assert.equal((await cli(...args)).code, 0);
    const dup = await cli(...args);
    assert.equal(dup.code, 1);
    assert.equal(JSON.parse(dup.stdout).code, 'EMAIL_TAKEN');
    const missing = await cli(
      'user',
      'set-role',
      '--project',
      'default',
      'AAAAAAAAAAAAAAAAAAAAAA',
      'admin',
      '--json',
    );
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.stdout).code, 'USER_NOT_FOUND');
    assert.equal((await cli('frobnicate')).code, 2);
  });
});

describe('coffer serve on an empty data dir', () => {
  let dataDir: string;
  let stack: TestStack;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-cli-'));
    stack = await prepareTestStack();
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await stack.cleanup();
  });

  it('a second start keeps the default project and its credentials', async () => {
    const first = await startCofferProcess({ dataDir, stack });
    await first.stop();
    const second = await startCofferProcess({ dataDir, stack });
    try {
      assert.deepEqual(second.credentials, first.credentials);
      assert.doesNotMatch(second.output(), /created project/);
      await second.client.signup();
    } finally {
      await second.stop();
    }
  });
});
