import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { prepareTestStack, type TestStack } from '../support/test-stack.ts';

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/**
 * The previous release: the admission hooks (issue 42) with migrations up to 0045, `contract`
 * (an added column of files breaks older nodes' prepared reads on PostgreSQL): the upgrade to it
 * is stop-migrate-start, so the rolling upgrade this test plays starts there, and plays 0046
 * (webhook attempts) and 0047 (the upload request's procedure on PostgreSQL), both expand: on
 * PostgreSQL the newer node's upload requests call the procedure while the older node's run
 * their transaction. Move it forward at each release; the migrations between it and
 * this tree must all be `expand` (docs/deploy.md, "Upgrading and rolling back").
 */
const previousRelease = '12bff3b7b7696a983ca8a9e14db354b558b42038';

const hasPrevious = await execFileAsync('git', [
  '-C',
  root,
  'cat-file',
  '-e',
  `${previousRelease}^{commit}`,
]).then(
  () => true,
  () => false,
);
const skip = hasPrevious
  ? false
  : `the previous release (${previousRelease.slice(0, 12)}) is not in this clone (shallow, or no git): the mixed-version upgrade is not tested`;

/**
 * Issue 43: a rolling upgrade. A node of the previous release serves; a node of this release
 * starts on the same stores, which migrates them; the older node keeps serving beside it
 * (uploads, verifies, downloads, reads the newer node's files) and the newer one serves what the
 * older wrote, before and after the migration.
 */
describe('a rolling upgrade: a node of the previous release beside a migrated one', { skip }, () => {
  let stack: TestStack;
  let dataDir: string;
  let previousTree: string;
  let older: CofferProcess;
  let newer: CofferProcess;
  before(async () => {
    previousTree = await mkdtemp(path.join(tmpdir(), 'coffer-previous-release-'));
    await execFileAsync('sh', [
      '-c',
      `git -C "${root}" archive "${previousRelease}" | tar -x -C "${previousTree}"`,
    ]);
    // The previous release runs from its sources with this tree's dependencies and built console.
    await symlink(path.join(root, 'node_modules'), path.join(previousTree, 'node_modules'));
    if (existsSync(path.join(root, 'dist')))
      await symlink(path.join(root, 'dist'), path.join(previousTree, 'dist'));
    stack = await prepareTestStack();
    dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-mixed-'));
    await mkdir(dataDir, { recursive: true });
    older = await startCofferProcess({ stack, dataDir, bin: path.join(previousTree, 'bin/coffer.js') });
  });
  after(async () => {
    await older?.stop();
    await newer?.stop();
    await stack?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
    await rm(previousTree, { recursive: true, force: true });
  });

  const pendingMigrations = async (): Promise<string[]> => {
    const result = await runCli(['migrate', '--dry-run', '--json', '--data-dir', dataDir], stack.env);
    assert.equal(result.code, 0, result.stderr);
    const pending: { name: string; kind: string }[] = JSON.parse(result.stdout).pending;
    // A contract migration has no rolling upgrade across it: the previous release is the one after it.
    const contracts = pending.filter(({ kind }) => kind === 'contract').map(({ name }) => name);
    assert.deepEqual(contracts, [], `move previousRelease forward past ${contracts.join(', ')}`);
    return pending.map(({ name }) => name);
  };

  it('keeps serving: each node uploads, verifies and downloads, and reads what the other wrote', async () => {
    const alice = await older.client.signup('alice@rolling.example');
    const before = await older.client.uploadFile(
      alice.token,
      'before-upgrade.txt',
      'written by the previous release',
    );

    // The older node left the stores at its schema: this release's later migrations, all
    // expand (pendingMigrations checks it), are pending (0046, 0047).
    await pendingMigrations();
    // The newer node's start migrates the shared database while the older node runs.
    newer = await startCofferProcess({ stack, dataDir });
    assert.deepEqual(await pendingMigrations(), []);
    const readyOlder = await fetch(`${older.baseUrl}/readyz`);
    assert.equal(readyOlder.status, 200);

    const bob = await older.client.signup('bob@rolling.example');
    const during = await older.client.uploadFile(
      bob.token,
      'during-upgrade.txt',
      'written by the previous release, migrated',
    );
    const carol = await newer.client.signup('carol@rolling.example');
    const fresh = await newer.client.uploadFile(carol.token, 'after-upgrade.txt', 'written by this release');
    // Shared with bob by the newer node, read by bob through the older one.
    const shared = await newer.client.call('POST', `/api/v1/file/${fresh._id}/acl/user/${bob.userId}`, {
      token: carol.token,
    });
    assert.equal(shared.status, 200, shared.text);

    for (const node of [older, newer]) {
      const aliceOn = await login(node.client, alice);
      const bobOn = await login(node.client, bob);
      assert.equal(await download(node.client, aliceOn, before._id), 'written by the previous release');
      assert.equal(
        await download(node.client, bobOn, during._id),
        'written by the previous release, migrated',
      );
      assert.equal(await download(node.client, bobOn, fresh._id), 'written by this release');
    }
  });
});

async function login(client: ApiClient, user: { email: string; password: string }): Promise<string> {
  const response = await client.call('POST', '/api/v1/auth/login', {
    body: { email: user.email, password: user.password },
  });
  assert.equal(response.status, 200, response.text);
  return response.body.token;
}

async function download(client: ApiClient, token: string, fileId: string): Promise<string> {
  const link = await client.call('GET', `/api/v1/file/${fileId}?expiresInSeconds=120`, { token });
  assert.equal(link.status, 200, link.text);
  const response = await fetch(link.body.url);
  assert.equal(response.status, 200);
  return response.text();
}
