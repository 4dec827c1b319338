import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openBlobStore } from '../../src/blob-stores/open-blob-store.ts';
import { loadConfig } from '../../src/config/config.ts';
import { newId } from '../../src/domain/ids.ts';
import { openStores } from '../../src/wiring/open-stores.ts';
import type { ApiResponse } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { cofferBin, hasScript, runOnTerminal } from '../support/terminal.ts';

const unknownId = 'AAAAAAAAAAAAAAAAAAAAAA';

/** Every key the server's blob store holds a version or staging object of (either stack). */
async function listStoredKeys(coffer: CofferProcess): Promise<string[]> {
  const config = loadConfig({ 'data-dir': coffer.dataDir }, { ...process.env, ...coffer.env });
  const blobs = await openBlobStore(config.storageUrl);
  try {
    const keys: string[] = [];
    for await (const page of blobs.listObjects({ pageSize: 1000 }))
      keys.push(...page.map((object) => object.key));
    return keys;
  } finally {
    if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
  }
}

// coffer user list | find | delete | reset-password, passwords from stdin, and the same code for
// the same situation in every user command (issue 10, item 14), through the real process.
describe('coffer user administration, with a server running on the same data', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer.stop());
  const cli = (args: string[], input?: string) =>
    runCli([...args, '--data-dir', coffer.dataDir], coffer.env, { input });
  const user = (...args: string[]) => ['user', ...args];
  const api = () => coffer.client;
  const login = (email: string, password: string) =>
    api().call('POST', '/api/v1/auth/login', { body: { email, password } });
  const create = async (email: string, password = 'a fine long password') => {
    const created = await cli(
      user('create', '--project', 'default', '--email', email, '--password-stdin', '--json'),
      `${password}\n`,
    );
    assert.equal(created.code, 0, created.stderr);
    return JSON.parse(created.stdout).userId as string;
  };
  /** Waits until `call` answers `status` (a change reaches the server within the access epoch). */
  const eventually = async (call: () => Promise<ApiResponse>, status: number) => {
    const deadline = Date.now() + 30_000;
    let answer = await call();
    while (answer.status !== status && Date.now() < deadline) {
      await sleep(50);
      answer = await call();
    }
    return answer;
  };

  it('user create takes the password from stdin (its line break dropped), never both ways', async () => {
    const userId = await create('piped@example.com', 'piped password here');
    const session = await login('piped@example.com', 'piped password here');
    assert.equal(session.status, 200, session.text);
    assert.equal(session.body.userId, userId);
    // CRLF too, and a password with spaces inside is kept whole.
    await create('crlf@example.com', '  spaced  out  \r');
    assert.equal((await login('crlf@example.com', '  spaced  out  ')).status, 200);
    const empty = await cli(
      user('create', '--project', 'default', '--email', 'e@example.com', '--password-stdin'),
      '\n',
    );
    assert.equal(empty.code, 2, empty.stderr);
    assert.match(empty.stderr, /--password-stdin/);
    // Neither flag and no terminal: pipe it in, says the one line.
    const neither = await cli(user('create', '--project', 'default', '--email', 'n@example.com'));
    assert.equal(neither.code, 2, neither.stderr);
    assert.match(neither.stderr, /^coffer: --password-stdin is required/);
    const weak = await cli(
      user('create', '--project', 'default', '--email', 'w@example.com', '--password-stdin', '--json'),
      'password1',
    );
    assert.equal(weak.code, 2);
    assert.equal(JSON.parse(weak.stdout).code, 'VALIDATION_FAILED');
  });

  it('on a terminal, a password is asked twice without echo; two that differ change nothing', {
    skip: !hasScript && 'util-linux script is not installed',
  }, async () => {
    const args = [
      'user',
      'create',
      '--project',
      'default',
      '--email',
      'typed@example.com',
      '--json',
      '--data-dir',
      coffer.dataDir,
    ];
    const typed = await runOnTerminal(args, coffer.env, [
      ['New password: ', 'typed at the terminal'],
      ['Again: ', 'typed at the terminal'],
    ]);
    assert.equal(typed.code, 0, typed.screen);
    assert.doesNotMatch(typed.screen, /typed at the terminal/);
    const { userId } = JSON.parse(typed.screen.slice(typed.screen.indexOf('{')));
    assert.equal((await login('typed@example.com', 'typed at the terminal')).body.userId, userId);
    const reset = ['user', 'reset-password', '--project', 'default', userId, '--data-dir', coffer.dataDir];
    const differ = await runOnTerminal(reset, coffer.env, [
      ['New password: ', 'one new password'],
      ['Again: ', 'another new password'],
    ]);
    assert.equal(differ.code, 2, differ.screen);
    assert.match(differ.screen, /the two passwords differ/);
    assert.equal((await login('typed@example.com', 'typed at the terminal')).status, 200);
  });

  it('user list prints every user in email order, one per line (JSON Lines with --json), never a hash', async () => {
    const project = await cli(['project', 'create', 'listing', '--json']);
    const { projectId } = JSON.parse(project.stdout);
    const emails = ['carol@example.com', 'Alice@example.com', 'bob@example.com'];
    for (const email of emails) {
      const created = await cli(
        user('create', '--project', projectId, '--email', email, '--password-stdin'),
        'a fine long password',
      );
      assert.equal(created.code, 0, created.stderr);
    }
    const listed = await cli(user('list', '--project', 'listing', '--json'));
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((line) => line.email),
      ['Alice@example.com', 'bob@example.com', 'carol@example.com'],
    );
    assert.deepEqual(Object.keys(lines[0]).sort(), [
      'createdAt',
      'displayName',
      'email',
      'enabled',
      'role',
      'updatedAt',
      'userId',
    ]);
    assert.doesNotMatch(listed.stdout, /argon2|hash|password/i);
    const text = await cli(user('list', '--project', projectId));
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout.split('\n')[0]!, /^[A-Za-z0-9_-]{22} {2}Alice@example\.com {2}user {2}enabled$/);
    const empty = await cli(['project', 'create', 'nobody-here', '--json']);
    assert.equal(empty.code, 0);
    const none = await cli(user('list', '--project', 'nobody-here', '--json'));
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, '');
  });

  it('user list pages through thousands of users in order, and stops quietly when its reader goes', async () => {
    const created = await cli(['project', 'create', 'crowd', '--json']);
    const { projectId } = JSON.parse(created.stdout);
    // Written straight to the stores (an argon2 hash per user through the CLI would take minutes).
    const config = loadConfig({ 'data-dir': coffer.dataDir }, { ...process.env, ...coffer.env });
    const { database, repositories } = await openStores(config);
    const count = 2600;
    try {
      for (let i = 0; i < count; i++) {
        const id = newId();
        const email = `u${String(i).padStart(5, '0')}@crowd.example`;
        await repositories.users.create({
          id,
          projectId,
          email,
          passwordHash: 'x',
          role: 'user',
          displayName: 'u',
          enabled: true,
        });
      }
    } finally {
      await database.close();
    }
    const listed = await cli(user('list', '--project', 'crowd', '--json'));
    assert.equal(listed.code, 0, listed.stderr);
    const emails = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).email as string);
    assert.equal(emails.length, count);
    assert.deepEqual(emails, [...emails].sort());
    assert.equal(new Set(emails).size, count);
    // A reader that takes one chunk and goes (`| head -1`): no stack trace, no hang, status 0.
    const child = spawn(
      process.execPath,
      [cofferBin, ...user('list', '--project', 'crowd'), '--data-dir', coffer.dataDir],
      {
        env: { ...process.env, ...coffer.env },
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '');
  });

  it('user find looks a user up by email, case-insensitively', async () => {
    const userId = await create('Findable@Example.com');
    const found = await cli(user('find', '--project', 'default', ' FINDABLE@example.COM', '--json'));
    assert.equal(found.code, 0, found.stderr);
    const shown = JSON.parse(found.stdout);
    assert.equal(shown.userId, userId);
    assert.equal(shown.email, 'Findable@Example.com');
    assert.equal(shown.role, 'user');
    assert.equal(shown.enabled, true);
    const text = await cli(user('find', '--project', 'default', 'findable@example.com'));
    assert.equal(text.stdout.trim(), `${userId}  Findable@Example.com  user  enabled`);
  });

  it('user reset-password sets a password from stdin and logs every session out', async () => {
    const userId = await create('forgetful@example.com', 'the old password');
    const session = await login('forgetful@example.com', 'the old password');
    assert.equal(session.status, 200);
    const weak = await cli(
      user('reset-password', '--project', 'default', userId, '--password-stdin', '--json'),
      'qwerty123',
    );
    assert.equal(weak.code, 2);
    assert.equal(JSON.parse(weak.stdout).code, 'VALIDATION_FAILED');
    const reset = await cli(
      user('reset-password', '--project', 'default', userId, '--password-stdin', '--json'),
      'the new password\n',
    );
    assert.equal(reset.code, 0, reset.stderr);
    assert.deepEqual(JSON.parse(reset.stdout), { userId, sessionsRevoked: 1 });
    const refreshed = await api().call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: session.body.refreshToken },
    });
    assert.equal(refreshed.body.code, 'INVALID_REFRESH_TOKEN');
    assert.equal((await login('forgetful@example.com', 'the old password')).body.code, 'INVALID_LOGIN');
    assert.equal((await login('forgetful@example.com', 'the new password')).status, 200);
  });

  it('user delete removes the account, its files and bytes, the shares naming it and its sessions', async () => {
    const goneId = await create('leaving@example.com');
    const ownerId = await create('staying@example.com');
    const gone = (await login('leaving@example.com', 'a fine long password')).body;
    const owner = (await login('staying@example.com', 'a fine long password')).body;
    // The leaving user's files: one verified (with a download link out), one never verified but uploaded.
    const kept = await api().uploadFile(gone.token, 'mine/kept.txt', 'bytes that must go');
    const link = (await api().call('GET', `/api/v1/file/${kept._id}`, { token: gone.token })).body
      .url as string;
    assert.equal((await fetch(link)).status, 200);
    const pending = await api().call('POST', '/api/v1/file', {
      token: gone.token,
      body: { filePath: 'mine/pending.txt' },
    });
    assert.equal(
      (await fetch(pending.body.putFileUrl, { method: 'PUT', body: 'pending bytes' })).status,
      200,
    );
    // A file of someone else, shared with the leaving user.
    const shared = await api().uploadFile(owner.token, 'theirs/shared.txt', 'shared');
    const share = await api().call('POST', `/api/v1/file/${shared._id}/acl/user/${goneId}`, {
      token: owner.token,
    });
    assert.equal(share.status, 200, share.text);

    const deleted = await cli(user('delete', '--project', 'default', goneId, '--json'));
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(JSON.parse(deleted.stdout), {
      userId: goneId,
      deleted: true,
      files: 2,
      shares: 1,
      sessions: 1,
    });

    // Its tokens stop working everywhere, its refresh tokens are revoked, it cannot log in.
    const profile = await eventually(() => api().call('GET', '/api/v1/user', { token: gone.token }), 401);
    assert.equal(profile.body.code, 'INVALID_TOKEN');
    const refreshed = await api().call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: gone.refreshToken },
    });
    assert.equal(refreshed.body.code, 'INVALID_REFRESH_TOKEN');
    assert.equal((await login('leaving@example.com', 'a fine long password')).body.code, 'INVALID_LOGIN');
    // Its files and bytes are gone: the link handed out finds nothing, nor does an admin.
    assert.equal((await fetch(link)).status, 404);
    const keys = await listStoredKeys(coffer);
    for (const fileId of [kept._id, pending.body.fileId]) {
      assert.ok(!keys.some((key) => key.endsWith(`/${fileId}`)), `bytes of ${fileId} are left in the store`);
    }
    assert.ok(
      keys.some((key) => key.endsWith(`/${shared._id}`)),
      'the owner’s bytes are kept',
    );
    // No share names it any more; the owner's file is untouched otherwise.
    const record = await api().call('GET', `/api/v1/file/${shared._id}`, { token: owner.token });
    assert.equal(record.status, 200);
    assert.deepEqual(record.body.acl, [{ scope: 'user', identifier: ownerId }]);
    // The email is free again.
    assert.equal(
      (
        await api().call('POST', '/api/v1/auth/signup', {
          body: { email: 'leaving@example.com', password: 'a fine long password' },
        })
      ).status,
      200,
    );
  });

  it('the same code for the same situation in every user command: USER_NOT_FOUND and NOT_FOUND exit 1', async () => {
    const commands = (project: string) => [
      user('find', '--project', project, 'nobody@example.com'),
      user('delete', '--project', project, unknownId),
      user('disable', '--project', project, unknownId),
      user('enable', '--project', project, unknownId),
      user('set-role', '--project', project, unknownId, 'admin'),
    ];
    for (const args of commands('default')) {
      const answer = await cli([...args, '--json']);
      assert.equal(answer.code, 1, `${args.join(' ')}: ${answer.stderr}`);
      assert.equal(JSON.parse(answer.stdout).code, 'USER_NOT_FOUND', args.join(' '));
    }
    const reset = await cli(
      [...user('reset-password', '--project', 'default', unknownId, '--password-stdin'), '--json'],
      'a fine long password',
    );
    assert.equal(reset.code, 1, reset.stderr);
    assert.equal(JSON.parse(reset.stdout).code, 'USER_NOT_FOUND');
    for (const args of [
      ...commands('no-such-project'),
      user('list', '--project', 'no-such-project'),
      ['project', 'show', 'no-such-project'],
    ]) {
      const answer = await cli([...args, '--json']);
      assert.equal(answer.code, 1, `${args.join(' ')}: ${answer.stderr}`);
      assert.equal(JSON.parse(answer.stdout).code, 'NOT_FOUND', args.join(' '));
      assert.match(answer.stderr, /^coffer: NOT_FOUND: No such project "no-such-project"$/m);
    }
  });
});
