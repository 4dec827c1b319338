import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { openBlobStore } from '../../src/blob-stores/open-blob-store.ts';
import { loadConfig } from '../../src/config/config.ts';
import { openStores } from '../../src/wiring/open-stores.ts';
import { ApiClient, type ApiResponse } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

/** Polls (the epoch is re-read every 250 ms) until `read` answers `expected`. */
async function waitFor(read: () => Promise<unknown>, expected: unknown): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (value === expected) return;
    if (Date.now() > deadline)
      assert.fail(`still ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`);
    await delay(50);
  }
}
const outcome = (response: ApiResponse) => response.body?.code ?? response.status;

describe('coffer project list | origin | delete, and the token lifetime and admin roles settings, on a running server', () => {
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
  const createProject = async (name: string) => {
    const created = await json('project', 'create', name);
    return new ApiClient(coffer.baseUrl, created);
  };

  it('list shows every project with its id and origins, never a secret', async () => {
    await createProject('listed');
    const listed = await cli('project', 'list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const names = JSON.parse(listed.stdout).projects.map((project: { name: string }) => project.name);
    assert.ok(names.includes('default') && names.includes('listed'), names.join());
    // The setting admissionSecret is named, never shown (its value is null or "(set)").
    assert.doesNotMatch(listed.stdout, /(?<!admission)secret|hash/i);
    assert.match((await cli('project', 'list')).stdout, /^default\s+\S+\s+origins: none$/m);
  });

  it('origin add | remove: the preflight follows at once, origin-only calls within the epoch', async () => {
    const origin = 'https://shop.example.com';
    const preflight = async () =>
      (
        await fetch(`${coffer.baseUrl}/api/v1/user`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET' },
        })
      ).status;
    const fromOrigin = async () => {
      const { token } = await coffer.client.signup();
      return outcome(
        await coffer.client.call('GET', '/api/v1/user', {
          token,
          headers: { 'sb-app-secret': '', origin },
        }),
      );
    };
    assert.equal(await preflight(), 403);
    const added = await json(
      'project',
      'origin',
      'add',
      'default',
      'https://Shop.Example.com/',
      'http://localhost:3000',
    );
    assert.deepEqual(added.allowedOrigins, [origin, 'http://localhost:3000']);
    assert.equal(await preflight(), 204);
    await waitFor(fromOrigin, 200);
    const again = await json('project', 'origin', 'add', 'default', origin);
    assert.deepEqual(again.allowedOrigins, [origin, 'http://localhost:3000'], 'no duplicate');
    const removed = await json('project', 'origin', 'remove', 'default', origin);
    assert.deepEqual(removed.allowedOrigins, ['http://localhost:3000']);
    assert.equal(await preflight(), 403);
    await waitFor(fromOrigin, 'ORIGIN_NOT_ALLOWED');
    for (const args of [
      ['project', 'origin', 'add', 'default', 'not a url'],
      ['project', 'origin', 'add', 'default', 'ftp://files.example.com'],
      ['project', 'origin', 'replace', 'default', origin],
      ['project', 'origin', 'add', 'default'],
    ]) {
      const wrong = await cli(...args);
      assert.equal(wrong.code, 2, `${args.join(' ')}: ${wrong.stderr}`);
    }
  });

  it('accessTokenLifetimeSeconds sets the lifetime of new tokens; adminRoles decides who is admin', async () => {
    const owner = await coffer.client.signup();
    const other = await coffer.client.signup();
    const file = await coffer.client.uploadFile(owner.token, 'private.txt', 'mine');
    const lifetime = async () => {
      const login = await coffer.client.call('POST', '/api/v1/auth/login', {
        body: { email: other.email, password: other.password },
      });
      const { iat, exp } = JSON.parse(Buffer.from(login.body.token.split('.')[1], 'base64url').toString());
      assert.equal(login.body.expiresAt, exp);
      return exp - iat;
    };
    assert.equal(await lifetime(), 3600);
    await json('project', 'set', 'default', 'accessTokenLifetimeSeconds=120');
    await waitFor(lifetime, 120);
    await json('project', 'set', 'default', 'accessTokenLifetimeSeconds=');
    await waitFor(lifetime, 3600);
    for (const value of ['59', '86401', 'soon']) {
      const wrong = await cli('project', 'set', 'default', `accessTokenLifetimeSeconds=${value}`);
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.match(wrong.stderr, /accessTokenLifetimeSeconds/);
    }

    const read = async () =>
      outcome(await coffer.client.call('GET', `/api/v1/file/${file._id}`, { token: other.token }));
    const setRole = await cli('user', 'set-role', '--project', 'default', other.userId, 'staff');
    assert.equal(setRole.code, 0, setRole.stderr);
    await waitFor(read, 'ACCESS_DENIED');
    const shown = await json('project', 'set', 'default', 'adminRoles=admin, staff');
    assert.deepEqual(shown.settings.adminRoles, ['admin', 'staff']);
    await waitFor(read, 200);
    await json('project', 'set', 'default', 'adminRoles=');
    await waitFor(read, 'ACCESS_DENIED');
    const noRole = await cli('project', 'set', 'default', 'adminRoles=,');
    assert.equal(noRole.code, 2, noRole.stderr);
  });

  it('delete refuses without --yes, then removes everything, even after a run that stopped half-way', async () => {
    const doomed = await createProject('doomed');
    const users = [await doomed.signup(), await doomed.signup()];
    const files = [];
    for (const [index, user] of users.entries())
      files.push(await doomed.uploadFile(user.token, `f${index}.txt`, `bytes ${index}`));
    const link = (await doomed.call('GET', `/api/v1/file/${files[0]!._id}`, { token: users[0]!.token })).body
      .url;
    assert.equal((await fetch(link)).status, 200);

    const refused = await cli('project', 'delete', 'doomed', '--json');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--yes is required: .*doomed.* 2 users and 2 files/);
    assert.equal(outcome(await doomed.call('GET', '/api/v1/user', { token: users[0]!.token })), 200);

    // What a run killed half-way leaves: no app credentials, the bytes of one file gone, its record kept.
    const config = loadConfig({ 'data-dir': coffer.dataDir }, coffer.env);
    const projectId = doomed.credentials.projectId;
    const withStores = async <T>(
      work: (
        stores: Awaited<ReturnType<typeof openStores>> & { blobs: Awaited<ReturnType<typeof openBlobStore>> },
      ) => Promise<T>,
    ) => {
      const stores = await openStores(config);
      const blobs = await openBlobStore(config.storageUrl);
      try {
        return await work({ ...stores, blobs });
      } finally {
        await stores.database.close();
        if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
      }
    };
    const stored = await withStores(async ({ repositories, blobs }) => {
      await repositories.projectDeletion.deleteAppCredentials(projectId);
      const all = await repositories.projectDeletion.findFiles(projectId, 10);
      for (const version of all[0]!.blobVersions)
        await blobs.delete(`${projectId}/${all[0]!.fileId}`, version);
      return all.flatMap((file) =>
        file.blobVersions.map((version) => ({ key: `${projectId}/${file.fileId}`, version })),
      );
    });
    assert.equal(stored.length, 2);

    const deleted = await cli('project', 'delete', doomed.credentials.projectId, '--yes', '--json');
    assert.equal(deleted.code, 0, deleted.stderr);
    const report = JSON.parse(deleted.stdout);
    assert.deepEqual(
      { ...report, sessions: undefined },
      {
        projectId: doomed.credentials.projectId,
        name: 'doomed',
        appCredentials: 0,
        files: 2,
        blobs: 2,
        sessions: undefined,
        users: 2,
      },
    );
    assert.ok(report.sessions >= 2);
    await waitFor(
      async () => outcome(await doomed.call('GET', '/api/v1/user', { token: users[0]!.token })),
      'INVALID_APP_CREDENTIALS',
    );
    assert.equal((await fetch(link)).status, 404);
    await withStores(async ({ blobs }) => {
      for (const { key, version } of stored) assert.equal(await blobs.head(key, version), undefined, key);
    });
    const names = JSON.parse((await cli('project', 'list', '--json')).stdout).projects.map(
      (p: { name: string }) => p.name,
    );
    assert.ok(!names.includes('doomed'));
    const gone = await cli('project', 'delete', 'doomed', '--yes');
    assert.equal(gone.code, 1, gone.stderr);
    assert.match(gone.stderr, /NOT_FOUND: No such project "doomed"/);
    // The name is free again; the other projects were not touched.
    await createProject('doomed');
    assert.equal(
      outcome(
        await coffer.client.call('GET', '/api/v1/user', { token: (await coffer.client.signup()).token }),
      ),
      200,
    );
  });
});
