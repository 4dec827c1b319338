import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

type Login = Awaited<ReturnType<CofferProcess['client']['signup']>>;

// The share commands (issue 36): files share|unshare <folder/>, files shares <folder/> and
// coffer shared, through the real process against a running `coffer serve`.
describe('coffer files share|unshare|shares <folder/> and coffer shared, against a running server', () => {
  let coffer: CofferProcess;
  let scratch: string;
  const users: Record<string, Login> = {};
  let ada: Login;
  let bob: Login;
  const envs: Record<string, Record<string, string>> = {};
  /** Runs `coffer` as one of the logged-in users. */
  const as = (who: string, args: string[]) => runCli(args, envs[who]);
  const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);
  const jsonLines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  const sharesOf = (shares: { scope: string; identifier: string; path: string }[]) =>
    shares.map(({ scope, identifier, path }) => [scope, identifier, path]);

  before(async () => {
    coffer = await startCofferProcess();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-shares-cli-'));
    for (const who of ['ada', 'bob', 'root']) {
      users[who] = await coffer.client.signup(`${who}@shares.example`);
      envs[who] = {
        COFFER_CREDENTIALS_FILE: path.join(scratch, who, 'credentials.json'),
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
          users[who]!.email,
          '--password-stdin',
        ],
        envs[who],
        { input: users[who]!.password, timeoutMs: 60_000 },
      );
      assert.equal(login.code, 0, login.stderr);
    }
    const setRole = await runCli(
      ['user', 'set-role', '--project', coffer.credentials.projectId, users.root!.userId, 'admin'],
      { ...coffer.env, COFFER_DATA_DIR: coffer.dataDir },
    );
    assert.equal(setRole.code, 0, setRole.stderr);
    ada = users.ada!;
    bob = users.bob!;
    for (const [filePath, content] of [
      ['trips/notes.txt', '1'],
      ['trips/rome/a.jpg', '22'],
    ] as const)
      await coffer.client.uploadFile(users.ada!.token, filePath, content);
  });
  after(async () => {
    await coffer.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('shares a folder by email, and another by role; files shares lists each share with the folder it is on', async () => {
    const byEmail = await as('ada', [
      'files',
      'share',
      'trips/',
      '--email',
      bob.email.toUpperCase(),
      '--json',
    ]);
    assert.equal(byEmail.code, 0, byEmail.stderr);
    const shared = lastJson(byEmail.stdout);
    assert.deepEqual([shared.owner, shared.path], [ada.userId, 'trips/']);
    assert.deepEqual(sharesOf(shared.shares), [['user', bob.userId, 'trips/']]);

    const root = await as('ada', ['files', 'share', '/', '--role', 'auditors']);
    assert.equal(root.code, 0, root.stderr);
    assert.match(root.stdout, /^Shared \/ \(role:auditors\)\nrole:auditors {2}on \/ {2}since \d{4}-/);

    const text = await as('ada', ['files', 'shares', 'trips/rome']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(`^role:auditors {2}on / {2}since \\S+\\nuser:${bob.userId} {2}on trips/ {2}since \\S+\\n$`),
    );
    const json = lastJson((await as('ada', ['files', 'shares', 'trips/rome/', '--json'])).stdout);
    assert.equal(json.path, 'trips/rome/');
    assert.deepEqual(sharesOf(json.shares), [
      ['role', 'auditors', ''],
      ['user', bob.userId, 'trips/'],
    ]);
  });

  it("--owner names another user's folder: the project's admins share it, anyone else meets FOLDER_NOT_FOUND", async () => {
    const refused = await as('bob', ['files', 'shares', 'trips/', '--owner', ada.userId, '--json']);
    assert.equal(refused.code, 1);
    assert.equal(lastJson(refused.stdout).code, 'FOLDER_NOT_FOUND');
    const asAdmin = await as('root', [
      'files',
      'share',
      'trips/rome/',
      '--owner',
      ada.userId,
      '--user',
      bob.userId,
      '--json',
    ]);
    assert.equal(asAdmin.code, 0, asAdmin.stderr);
    assert.deepEqual(sharesOf(lastJson(asAdmin.stdout).shares).at(-1), ['user', bob.userId, 'trips/rome/']);
  });

  it('coffer shared lists what others shared with me, newest first, across pages', async () => {
    const before = jsonLines((await as('bob', ['shared', '--json'])).stdout);
    assert.deepEqual(
      before.map((item) => [item.kind, item.scope, item.owner, item.path, item.fileCount]),
      [
        ['folder', 'user', ada.userId, 'trips/rome/', 1],
        ['folder', 'user', ada.userId, 'trips/', 2],
      ],
    );
    assert.deepEqual(jsonLines((await as('ada', ['shared', '--json'])).stdout), [], 'never my own');

    // Past one page of 100: 51 files, each shared with bob by id and by his role.
    const fileIds: string[] = [];
    for (let index = 0; index < 51; index += 1) {
      const file = await coffer.client.uploadFile(ada.token, `many/${index}.txt`, 'x');
      fileIds.push(file._id);
    }
    const byCli = await as('ada', ['files', 'share', fileIds[0]!, '--user', bob.userId, '--json']);
    assert.equal(byCli.code, 0, byCli.stderr);
    for (const fileId of fileIds) {
      if (fileId !== fileIds[0])
        await coffer.client.call('POST', `/api/v1/file/${fileId}/acl/user/${bob.userId}`, {
          token: ada.token,
        });
      await coffer.client.call('POST', `/api/v1/file/${fileId}/acl/role/user`, { token: ada.token });
    }
    const all = jsonLines((await as('bob', ['shared', '--json'])).stdout);
    assert.equal(all.length, 2 + 2 * 51);
    const times = all.map((item) => Date.parse(item.sharedAt));
    assert.deepEqual(
      times,
      times.toSorted((a, b) => b - a),
      'newest first',
    );
    assert.deepEqual(new Set(all.flatMap((item) => (item.file ? [item.file._id] : []))), new Set(fileIds));

    const text = await as('bob', ['shared']);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trim().split('\n');
    assert.equal(lines.length, all.length);
    assert.match(
      lines.at(-1)!,
      new RegExp(`^\\S+ {2}user {9}3 B {2}trips/ {2}\\(2 files, of ${ada.userId}\\)$`),
    );
    assert.match(
      lines[0]!,
      new RegExp(`^\\S+ {2}role {9}1 B {2}many/\\d+\\.txt {2}\\(file \\S+, of ${ada.userId}\\)$`),
    );
  });

  it('a file id keeps the file share (now by email too); unshare ends a folder share', async () => {
    const file = await coffer.client.uploadFile(ada.token, 'solo.txt', 'solo');
    const byEmail = await as('ada', ['files', 'share', file._id, '--email', bob.email, '--json']);
    assert.equal(byEmail.code, 0, byEmail.stderr);
    assert.ok(
      lastJson(byEmail.stdout).acl.some((entry: { identifier: string }) => entry.identifier === bob.userId),
    );
    const text = await as('ada', ['files', 'unshare', file._id, '--user', bob.userId]);
    assert.equal(text.stdout, `${file._id} is no longer shared with user:${bob.userId}\n`);

    const unshared = await as('ada', ['files', 'unshare', 'trips/', '--email', bob.email, '--json']);
    assert.equal(unshared.code, 0, unshared.stderr);
    assert.deepEqual(sharesOf(lastJson(unshared.stdout).shares), [['role', 'auditors', '']]);
    const left = jsonLines((await as('bob', ['shared', '--json'])).stdout).filter(
      (item) => item.kind === 'folder',
    );
    assert.deepEqual(
      left.map((item) => item.path),
      ['trips/rome/'],
    );
  });

  it('refuses a mistaken invocation with exit 2 before calling the server', async () => {
    for (const args of [
      ['files', 'share', 'trips/'],
      ['files', 'share', 'trips/', '--user', bob.userId, '--role', 'user'],
      ['files', 'share', 'some-file-id', '--role', 'user', '--owner', bob.userId],
      ['files', 'unshare', 'some-file-id', '--email', bob.email],
      ['files', 'shares'],
    ]) {
      const refused = await as('ada', [...args, '--json']);
      assert.equal(refused.code, 2, args.join(' '));
      assert.equal(lastJson(refused.stdout).code, 'INVALID_INVOCATION', args.join(' '));
    }
  });
});
