import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

type Login = Awaited<ReturnType<CofferProcess['client']['signup']>>;

// The folder forms of `coffer files` (issue 36): ls <folder/> as a tree with sizes, mv -r, rm -r,
// through the real process against a running `coffer serve`.
describe('coffer files ls <folder/>, mv -r and rm -r, against a running server', () => {
  let coffer: CofferProcess;
  let scratch: string;
  let ada: Login;
  const envs: Record<string, Record<string, string>> = {};
  /** Runs `coffer` as one of the logged-in users. */
  const as = (who: string, args: string[]) => runCli(args, envs[who]);
  const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);
  const jsonLines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));

  before(async () => {
    coffer = await startCofferProcess();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-folders-cli-'));
    const users: Record<string, Login> = {};
    for (const who of ['ada', 'bob', 'root']) {
      users[who] = await coffer.client.signup(`${who}@folders.example`);
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
    ada = users.ada!;
    const setRole = await runCli(
      ['user', 'set-role', '--project', coffer.credentials.projectId, users.root!.userId, 'admin'],
      { ...coffer.env, COFFER_DATA_DIR: coffer.dataDir },
    );
    assert.equal(setRole.code, 0, setRole.stderr);
    for (const [filePath, content] of [
      ['trips/notes.txt', '1'],
      ['trips/rome/a.jpg', '22'],
      ['trips/rome/b.jpg', '333'],
      ['trips/paris/c.jpg', '4444'],
    ] as const)
      await coffer.client.uploadFile(ada.token, filePath, content);
  });
  after(async () => {
    await coffer.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('prints a folder as a tree with the subtree sizes; --json a line per folder and file', async () => {
    const tree = await as('ada', ['files', 'ls', 'trips/']);
    assert.equal(tree.code, 0, tree.stderr);
    assert.equal(
      tree.stdout,
      [
        '      10 B  trips/  (4 files)',
        '       4 B  ├── paris/  (1 file)',
        '       4 B  │   └── c.jpg',
        '       5 B  ├── rome/  (2 files)',
        '       2 B  │   ├── a.jpg',
        '       3 B  │   └── b.jpg',
        '       1 B  └── notes.txt',
        '',
      ].join('\n'),
    );
    assert.equal((await as('ada', ['files', 'ls', 'trips'])).stdout, tree.stdout, 'the closing / is added');
    const root = await as('ada', ['files', 'ls', '/']);
    assert.equal(root.code, 0, root.stderr);
    assert.match(root.stdout, /^ {6}10 B {2}\/ {2}\(4 files\)\n {6}10 B {2}└── trips\/ {2}\(4 files\)\n/);

    const lines = jsonLines((await as('ada', ['files', 'ls', 'trips/rome/', '--json'])).stdout);
    assert.deepEqual(lines[0], { folder: { path: 'trips/rome/', fileCount: 2, totalBytes: 5 } });
    assert.deepEqual(
      lines.slice(1).map((line) => [line.file.filePath, line.file.meta.ContentLength]),
      [
        ['trips/rome/a.jpg', '2'],
        ['trips/rome/b.jpg', '3'],
      ],
    );
    const nested = jsonLines((await as('ada', ['files', 'ls', 'trips/', '--json'])).stdout);
    const paris = nested.find((line) => line.folder?.path === 'trips/paris/');
    assert.deepEqual([paris.folder.name, paris.folder.fileCount, paris.folder.totalBytes], ['paris', 1, 4]);

    // Without a folder, the listing of before; a folder and --prefix do not mix.
    const listed = jsonLines((await as('ada', ['files', 'ls', '--prefix', 'trips/rome/', '--json'])).stdout);
    assert.deepEqual(listed.map((file) => file.filePath).sort(), ['trips/rome/a.jpg', 'trips/rome/b.jpg']);
    assert.equal((await as('ada', ['files', 'ls', 'trips/', '--prefix', 'trips/'])).code, 2);
    assert.equal((await as('ada', ['files', 'ls', '--owner', ada.userId])).code, 2);
    const missing = await as('ada', ['files', 'ls', 'nowhere/', '--json']);
    assert.equal(missing.code, 1);
    assert.equal(lastJson(missing.stdout).code, 'FOLDER_NOT_FOUND');
  });

  it("--owner names another user's folder: the project's admins only, others meet FOLDER_NOT_FOUND", async () => {
    const refused = await as('bob', ['files', 'ls', 'trips/', '--owner', ada.userId, '--json']);
    assert.equal(refused.code, 1);
    assert.equal(lastJson(refused.stdout).code, 'FOLDER_NOT_FOUND');
    const asAdmin = await as('root', ['files', 'ls', 'trips/rome/', '--owner', ada.userId]);
    assert.equal(asAdmin.code, 0, asAdmin.stderr);
    assert.match(asAdmin.stdout, /^ +5 B {2}trips\/rome\/ {2}\(2 files\)\n/);
    assert.equal((await as('bob', ['files', 'rm', '-r', 'trips/', '--owner', ada.userId])).code, 1);
    assert.equal((await as('ada', ['files', 'ls', 'trips/'])).code, 0, 'bob deleted nothing');
  });

  it('mv -r moves a whole folder or, on a taken path, nothing; mv moves one file', async () => {
    await coffer.client.uploadFile(ada.token, 'archive/paris/c.jpg', 'in the way');
    const clash = await as('ada', ['files', 'mv', '-r', 'trips/paris/', 'archive/paris/', '--json']);
    assert.equal(clash.code, 1);
    assert.equal(lastJson(clash.stdout).code, 'FOLDER_CONFLICT');
    assert.equal((await as('ada', ['files', 'ls', 'trips/paris/'])).code, 0, 'nothing moved');

    const moved = await as('ada', ['files', 'mv', '--recursive', 'trips/rome', 'archive/rome', '--json']);
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(lastJson(moved.stdout), { from: 'trips/rome/', to: 'archive/rome/', moved: 2 });
    const archive = await as('ada', ['files', 'ls', 'archive/']);
    assert.match(archive.stdout, /└── rome\/ {2}\(2 files\)\n +2 B {2} {4}├── a\.jpg\n/);

    const text = await as('ada', ['files', 'mv', '-r', 'archive/rome/', 'rome/']);
    assert.equal(text.stdout, 'Moved archive/rome/ to rome/ (2 files)\n');
    const refused = await as('ada', ['files', 'mv', 'rome/', 'elsewhere/']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /rome\/ is a folder: coffer files mv -r/);

    const [notes] = jsonLines(
      (await as('ada', ['files', 'ls', '--prefix', 'trips/notes.txt', '--json'])).stdout,
    );
    const one = await as('ada', ['files', 'mv', notes._id, 'notes/trips.txt', '--json']);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(
      [lastJson(one.stdout)._id, lastJson(one.stdout).filePath],
      [notes._id, 'notes/trips.txt'],
    );
  });

  it('rm -r deletes every file under each folder and says how many and how much; rm alone refuses a folder', async () => {
    const refused = await as('ada', ['files', 'rm', 'archive/']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /archive\/ is a folder: coffer files rm -r/);

    const removed = await as('ada', ['files', 'rm', '-r', 'archive/', 'rome/', '--json']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(lastJson(removed.stdout), {
      folders: [
        { path: 'archive/', deleted: 1, bytes: 10 },
        { path: 'rome/', deleted: 2, bytes: 5 },
      ],
    });
    const text = await as('ada', ['files', 'rm', '-r', 'trips']);
    assert.equal(text.stdout, 'Deleted trips/ (1 file, 4 B)\n');
    const again = await as('ada', ['files', 'rm', '-r', 'trips/', '--json']);
    assert.equal(again.code, 1);
    assert.equal(lastJson(again.stdout).code, 'FOLDER_NOT_FOUND');
    const left = await as('ada', ['files', 'ls', '/']);
    assert.equal(
      left.stdout,
      [
        '       1 B  /  (1 file)',
        '       1 B  └── notes/  (1 file)',
        '       1 B      └── trips.txt',
        '',
      ].join('\n'),
    );
  });
});
