import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

type Login = Awaited<ReturnType<CofferProcess['client']['signup']>>;

// coffer files trash (--empty), files restore (from the trash) and files purge (issue 38, item 3),
// through the real process against a running `coffer serve` (its project keeps a trash: the
// default trashRetentionDays is 30).
describe('coffer files trash|restore|purge, against a running server', () => {
  let coffer: CofferProcess;
  let scratch: string;
  const users: Record<string, Login> = {};
  const envs: Record<string, Record<string, string>> = {};
  /** Runs `coffer` as one of the logged-in users. */
  const as = (who: string, args: string[]) => runCli(args, envs[who]);
  const jsonLines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));

  before(async () => {
    coffer = await startCofferProcess();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-trash-cli-'));
    for (const who of ['ada', 'bob', 'root']) {
      users[who] = await coffer.client.signup(`${who}@trash-cli.example`);
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
  });
  after(async () => {
    await coffer.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists what files rm put in the trash, restores at its path and at --path, purges, empties', async () => {
    const token = users.ada!.token;
    const first = await coffer.client.uploadFile(token, 'notes/first.txt', 'one');
    const second = await coffer.client.uploadFile(token, 'notes/second.txt', 'two');
    const third = await coffer.client.uploadFile(token, 'notes/third.txt', 'three');
    const removed = await as('ada', ['files', 'rm', first._id, second._id, third._id]);
    assert.equal(removed.code, 0, removed.stderr);

    const listed = await as('ada', ['files', 'trash', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const items = jsonLines(listed.stdout);
    assert.deepEqual(items.map((item) => item._id).sort(), [first._id, second._id, third._id].sort());
    const trashedAt = items.map((item) => Date.parse(item.trashedAt));
    assert.deepEqual(
      trashedAt,
      [...trashedAt].sort((a, b) => b - a),
      'most recently deleted first',
    );
    assert.ok(items.every((item) => item.trashedBy === users.ada!.userId && item.purgeAt));
    const text = await as('ada', ['files', 'trash']);
    assert.match(
      text.stdout,
      new RegExp(`^${third._id} +5 B {2}notes/third\\.txt {2}deleted \\S+, kept until \\S+$`, 'm'),
    );

    const back = await as('ada', ['files', 'restore', first._id, '--json']);
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(
      [JSON.parse(back.stdout)._id, JSON.parse(back.stdout).filePath],
      [first._id, 'notes/first.txt'],
    );
    const elsewhere = await as('ada', ['files', 'restore', second._id, '--path', 'kept/second.txt']);
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.equal(elsewhere.stdout.trim(), `Restored ${second._id} at kept/second.txt`);
    const read = await coffer.client.call('GET', `/api/v1/file/${second._id}`, { token });
    assert.equal(read.body.filePath, 'kept/second.txt');
    const mixed = await as('ada', [
      'files',
      'restore',
      third._id,
      '--path',
      'x.txt',
      '--version-id',
      third._id,
    ]);
    assert.equal(mixed.code, 2, mixed.stderr);
    assert.match(mixed.stderr, /--path/);

    const purged = await as('ada', ['files', 'purge', third._id, '--json']);
    assert.equal(purged.code, 0, purged.stderr);
    assert.deepEqual(JSON.parse(purged.stdout), { purged: third._id });
    assert.equal((await as('ada', ['files', 'trash', '--json'])).stdout, '');
    const again = await as('ada', ['files', 'purge', third._id, '--json']);
    assert.equal(again.code, 1, again.stderr);
    assert.equal(JSON.parse(again.stdout).code, 'FILE_NOT_FOUND');
    const gone = await as('ada', ['files', 'restore', third._id]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /FILE_NOT_FOUND/);

    assert.equal((await as('ada', ['files', 'rm', first._id, second._id])).code, 0);
    const emptied = await as('ada', ['files', 'trash', '--empty', '--json']);
    assert.equal(emptied.code, 0, emptied.stderr);
    assert.deepEqual(JSON.parse(emptied.stdout), { purged: 2 });
    assert.equal((await as('ada', ['files', 'trash'])).stdout, '');
  });

  it('prints every page of a long trash', async () => {
    const token = users.bob!.token;
    const ids: string[] = [];
    // One more file than the largest page (100): the listing needs a second page.
    for (let batch = 0; batch < 101; batch += 20) {
      const count = Math.min(20, 101 - batch);
      const files = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          coffer.client.uploadFile(token, `many/${batch + index}.txt`, 'x'),
        ),
      );
      ids.push(...files.map((file) => file._id));
    }
    for (const fileIds of [ids.slice(0, 100), ids.slice(100)]) {
      const deleted = await coffer.client.call('POST', '/api/v1/file/delete', { token, body: { fileIds } });
      assert.equal(deleted.status, 200, deleted.text);
    }
    const listed = await as('bob', ['files', 'trash', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const items = jsonLines(listed.stdout);
    assert.equal(items.length, 101);
    assert.deepEqual(items.map((item) => item._id).sort(), [...ids].sort());
  });

  it("--owner names another user's trash: the project's admins only", async () => {
    const file = await coffer.client.uploadFile(users.ada!.token, 'owned.txt', 'ada');
    assert.equal((await as('ada', ['files', 'rm', file._id])).code, 0);
    const owner = users.ada!.userId;

    const listed = await as('root', ['files', 'trash', '--owner', owner, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      jsonLines(listed.stdout).map((item) => item._id),
      [file._id],
    );
    assert.equal((await as('root', ['files', 'trash'])).stdout, '', "the admin's own trash is empty");
    const refused = await as('bob', ['files', 'trash', '--owner', owner, '--json']);
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(JSON.parse(refused.stdout).code, 'FILE_NOT_FOUND');
    assert.equal((await as('bob', ['files', 'trash', '--empty', '--owner', owner])).code, 1);

    const emptied = await as('root', ['files', 'trash', '--empty', '--owner', owner]);
    assert.equal(emptied.code, 0, emptied.stderr);
    assert.equal(emptied.stdout.trim(), 'Purged 1 file from the trash');
    assert.equal((await as('ada', ['files', 'trash'])).stdout, '');
  });
});
