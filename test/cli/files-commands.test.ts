import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { hasScript, runOnTerminal } from '../support/terminal.ts';

type ProgressEvent = {
  event: string;
  command: string;
  phase: string;
  done: number;
  total?: number;
  bytes: number;
};

/** stderr's progress events (--json), one per line; anything else there fails the parse. */
function progressEvents(stderr: string): ProgressEvent[] {
  const events = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as ProgressEvent);
  for (const event of events) assert.equal(event.event, 'progress');
  return events;
}

function assertGrowing(events: ProgressEvent[], phase: string, finalDone: number): void {
  const done = events.filter((event) => event.phase === phase).map((event) => event.done);
  assert.ok(done.length >= 2, `${phase}: a first and a last event at least`);
  assert.deepEqual(
    done,
    [...done].sort((a, b) => a - b),
    `${phase}: done never goes back`,
  );
  assert.equal(done.at(-1), finalDone);
}

// A user's own commands against a running server (login, files ls|upload|download|share|
// unshare|rm, logout), and progress on export and import, through the real process.
describe('coffer login and coffer files, against a running server', () => {
  let coffer: CofferProcess;
  let scratch: string;
  let env: Record<string, string>;
  let otherUserId: string;
  const password = 'a long enough passphrase 42';
  const as = (args: string[], input?: string) => runCli(args, env, { input });
  const json = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);

  before(async () => {
    coffer = await startCofferProcess();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-files-cli-'));
    const admin = (args: string[], input?: string) =>
      runCli([...args, '--data-dir', coffer.dataDir, '--json'], coffer.env, { input });
    const projectId = coffer.credentials.projectId;
    for (const email of ['ada@example.com', 'bob@example.com']) {
      const created = await admin(
        ['user', 'create', '--project', projectId, '--email', email, '--password-stdin'],
        password,
      );
      assert.equal(created.code, 0, created.stderr);
      if (email === 'bob@example.com') otherUserId = JSON.parse(created.stdout).userId;
    }
    env = {
      COFFER_CREDENTIALS_FILE: path.join(scratch, 'config', 'credentials.json'),
      COFFER_APP_SECRET: coffer.credentials.appSecret,
    };
  });
  after(async () => {
    await coffer.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('logs in: a 0600 file with the session and never the password; a wrong password keeps no file', async () => {
    const base = ['login', '--url', coffer.baseUrl, '--app-id', coffer.credentials.appId, '--password-stdin'];
    const wrong = await as([...base, '--email', 'ada@example.com', '--json'], 'not the password');
    assert.equal(wrong.code, 1);
    assert.equal(json(wrong.stdout).code, 'INVALID_LOGIN');
    await assert.rejects(stat(env.COFFER_CREDENTIALS_FILE!), { code: 'ENOENT' });

    const result = await as([...base, '--email', 'ada@example.com', '--json'], `${password}\n`);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(json(result.stdout).email, 'ada@example.com');
    const file = await stat(env.COFFER_CREDENTIALS_FILE!);
    assert.equal(file.mode & 0o777, 0o600);
    const saved = await readFile(env.COFFER_CREDENTIALS_FILE!, 'utf8');
    assert.ok(!saved.includes(password), 'the password is not kept');
    assert.ok(JSON.parse(saved).session.refreshToken);
    assert.ok(!result.stdout.includes(JSON.parse(saved).session.refreshToken), 'no token printed');
  });

  it('uploads with progress events, lists, downloads the same bytes, refuses to overwrite, removes', async () => {
    const local = path.join(scratch, 'photo.bin');
    const content = randomBytes(3 * 1024 * 1024 + 17);
    await writeFile(local, content);
    const upload = await as(['files', 'upload', local, '--path', 'albums/photo.bin', '--json']);
    assert.equal(upload.code, 0, upload.stderr);
    const file = json(upload.stdout);
    assert.equal(file.filePath, 'albums/photo.bin');
    assert.equal(file.verified, true);
    assertGrowing(progressEvents(upload.stderr), 'upload', content.length);

    const listed = await as(['files', 'ls', '--prefix', 'albums/', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const ids = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)._id);
    assert.deepEqual(ids, [file._id]);
    assert.equal((await as(['files', 'ls', '--prefix', 'elsewhere/'])).stdout, '');
    assert.match((await as(['files', 'ls'])).stdout, /albums\/photo\.bin/);

    const out = path.join(scratch, 'copy.bin');
    const download = await as(['files', 'download', file._id, '--out', out, '--json']);
    assert.equal(download.code, 0, download.stderr);
    assert.ok((await readFile(out)).equals(content), 'the same bytes');
    assertGrowing(progressEvents(download.stderr), 'download', content.length);
    const again = await as(['files', 'download', file._id, '--out', out]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /exists \(--force overwrites it\)/);
    assert.equal((await as(['files', 'download', file._id, '--out', out, '--force'])).code, 0);

    const removed = await as(['files', 'rm', file._id, '--json']);
    assert.equal(removed.code, 0, removed.stderr);
    const gone = await as(['files', 'download', file._id, '--out', path.join(scratch, 'gone.bin'), '--json']);
    assert.equal(gone.code, 1);
    assert.equal(json(gone.stdout).code, 'FILE_NOT_FOUND');
  });

  it('shares with a user and a role and takes it back; exactly one of --user and --role', async () => {
    const local = path.join(scratch, 'notes.txt');
    await writeFile(local, 'shared notes');
    const file = json((await as(['files', 'upload', local, '--json'])).stdout);
    const shared = await as(['files', 'share', file._id, '--user', otherUserId, '--json']);
    assert.equal(shared.code, 0, shared.stderr);
    const bob = { scope: 'user', identifier: otherUserId };
    const editors = { scope: 'role', identifier: 'editors' };
    assert.deepEqual(json(shared.stdout).acl.at(-1), bob);
    const withRole = await as(['files', 'share', file._id, '--role', 'editors']);
    assert.match(withRole.stdout, /role:editors/);
    const unshared = await as(['files', 'unshare', file._id, '--user', otherUserId, '--json']);
    assert.equal(unshared.code, 0, unshared.stderr);
    const listed = await as(['files', 'ls', '--json']);
    const acl = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((record) => record._id === file._id).acl;
    assert.deepEqual(acl.at(-1), editors);
    assert.ok(!acl.some((entry: { identifier: string }) => entry.identifier === otherUserId));
    assert.equal((await as(['files', 'share', file._id])).code, 2);
    assert.equal((await as(['files', 'share', file._id, '--user', 'x', '--role', 'y'])).code, 2);
  });

  it('logs out: the session ends on the server and the file goes', async () => {
    const saved = JSON.parse(await readFile(env.COFFER_CREDENTIALS_FILE!, 'utf8'));
    const result = await as(['logout', '--json']);
    assert.equal(result.code, 0, result.stderr);
    await assert.rejects(stat(env.COFFER_CREDENTIALS_FILE!), { code: 'ENOENT' });
    const refresh = await coffer.client.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: saved.session.refreshToken },
    });
    assert.equal(refresh.status, 401);
    const after = await as(['files', 'ls']);
    assert.equal(after.code, 2);
    assert.match(after.stderr, /not logged in/);
  });
});

describe('progress of coffer export and import', () => {
  let coffer: CofferProcess;
  let scratch: string;
  before(async () => {
    coffer = await startCofferProcess();
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-progress-'));
    const { token } = await coffer.client.signup();
    for (let i = 0; i < 5; i++) await coffer.client.uploadFile(token, `p/${i}.txt`, `content ${i}`);
  });
  after(async () => {
    await coffer.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('--json: events on stderr with a growing count, one result on stdout', async () => {
    const out = path.join(scratch, 'export');
    const exported = await runCli(
      ['export', '--out', out, '--json', '--data-dir', coffer.dataDir],
      coffer.env,
    );
    assert.equal(exported.code, 0, exported.stderr);
    const counts = JSON.parse(exported.stdout);
    assert.equal(counts.blobs, 5);
    const rows = Object.entries(counts)
      .filter(([name]) => name !== 'blobs')
      .reduce((sum, [, count]) => sum + (count as number), 0);
    const events = progressEvents(exported.stderr);
    // The rows come from one snapshot first, then the bytes of the files it lists.
    assertGrowing(events, 'rows', rows);
    assert.equal(events.filter((event) => event.phase === 'rows').at(-1)!.total, rows);
    assertGrowing(events, 'blobs', 5);
    assert.ok(events.at(-1)!.bytes >= 5 * 'content 0'.length);

    const target = path.join(scratch, 'imported');
    // Into the embedded defaults of a new data dir, whatever stack the server runs on.
    const imported = await runCli(['import', '--in', out, '--json', '--data-dir', target]);
    assert.equal(imported.code, 0, imported.stderr);
    const importEvents = progressEvents(imported.stderr);
    assertGrowing(importEvents, 'blobs', 5);
    assertGrowing(importEvents, 'rows', rows);
  });

  it('draws a bar on a terminal, and prints nothing extra without one', {
    skip: !hasScript && 'no util-linux script',
  }, async () => {
    const quiet = await runCli(
      ['export', '--out', path.join(scratch, 'quiet'), '--data-dir', coffer.dataDir],
      coffer.env,
    );
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr.trim(), '', 'a script gets no progress');
    const shown = await runOnTerminal(
      ['export', '--out', path.join(scratch, 'shown'), '--data-dir', coffer.dataDir],
      coffer.env,
    );
    assert.equal(shown.code, 0, shown.screen);
    assert.match(shown.screen, /rows \[[█░]+\] \d+\/\d+/);
    assert.match(shown.screen, /Exported/);
  });
});
