import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { startPostgres } from '../support/postgres-server.ts';
import { startS3Server } from '../support/s3-server.ts';
import { currentStackName, prepareTestStack, runsPass, type TestStack } from '../support/test-stack.ts';

// The restore drill (issue 25): a backup taken while the server writes restores, on the other
// stack, and every verified file it holds downloads there with its ETag and its bytes.

const embedded: TestStack = { name: 'embedded', settings: {}, env: {}, cleanup: async () => {} };

/** PostgreSQL + S3: the pass's own (a fresh database and key prefix), else private servers. */
async function startPgS3(): Promise<TestStack | undefined> {
  if (currentStackName() === 'pg-s3') return prepareTestStack();
  const postgres = await startPostgres();
  if (!postgres) return undefined;
  const s3 = await startS3Server();
  return {
    name: 'pg-s3',
    settings: {},
    env: {
      COFFER_DATABASE_URL: postgres.url,
      COFFER_STORAGE_URL: s3.storageUrl,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    cleanup: async () => {
      await s3.stop();
      await postgres.stop();
    },
  };
}

/**
 * Uploads (each a new record and its creator's ACL entry) and shares (an ACL entry) in
 * `writers` loops until stopped: the writes that broke exports read a table at a time.
 */
function startWriteLoad(server: CofferProcess, token: string, writers: number) {
  let stopping = false;
  let done = 0;
  const failures: string[] = [];
  const loop = async (writer: number) => {
    for (let n = 0; !stopping; n++) {
      try {
        const file = await server.client.uploadFile(token, `load/${writer}/${n}.bin`, randomBytes(8192));
        const shared = await server.client.call('POST', `/api/v1/file/${file._id}/acl/role/team`, { token });
        if (shared.status !== 200) failures.push(`share: ${shared.status} ${shared.text}`);
        done += 1;
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const loops = Array.from({ length: writers }, (_, writer) => loop(writer));
  return {
    done: () => done,
    failures,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/** Polls until `condition` holds (a condition, never a fixed sleep). */
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await delay(10);
}

async function verifiedFileIds(exportDir: string): Promise<string[]> {
  const lines = (await readFile(path.join(exportDir, 'metadata.ndjson'), 'utf8')).split('\n');
  return lines
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line))
    .filter(({ table, row }) => table === 'files' && row.verified === 1)
    .map(({ row }) => row.id as string);
}

async function drill(options: { from: TestStack; to: TestStack; work: string }) {
  const { from, to, work } = options;
  const sourceDir = path.join(work, 'source');
  const targetDir = path.join(work, 'target');
  const exportDir = path.join(work, 'export');
  const source = await startCofferProcess({ dataDir: sourceDir, stack: from });
  const alice = await source.client.signup('alice@example.com', 'alice password');
  let load: ReturnType<typeof startWriteLoad> | undefined;
  try {
    // Enough bytes that the export is still copying while the load writes.
    for (let i = 0; i < 60; i++)
      await source.client.uploadFile(alice.token, `seed/${i}.bin`, randomBytes(65536));
    load = startWriteLoad(source, alice.token, 4);
    await waitUntil(() => load!.done() > 0);
    const doneBefore = load.done();
    const exported = await runCli(
      ['export', '--out', exportDir, '--data-dir', sourceDir, '--json'],
      from.env,
    );
    const writtenDuring = load.done() - doneBefore;
    await load.stop();
    assert.equal(exported.code, 0, exported.stderr);
    assert.ok(writtenDuring > 0, 'the server wrote while the export ran');
    assert.deepEqual(load.failures, [], 'the server kept serving every write during the export');
  } finally {
    await load?.stop();
    await source.stop();
  }

  const verify = await runCli(['export', '--verify', exportDir, '--json']);
  assert.equal(verify.code, 0, verify.stderr);
  const imported = await runCli(['import', '--in', exportDir, '--data-dir', targetDir, '--json'], to.env);
  assert.equal(imported.code, 0, imported.stderr);

  // The default project's credentials file is part of a backup (docs/deploy.md §6).
  await mkdir(targetDir, { recursive: true, mode: 0o700 });
  await copyFile(path.join(sourceDir, 'default-project.json'), path.join(targetDir, 'default-project.json'));
  const target = await startCofferProcess({ dataDir: targetDir, stack: to });
  try {
    const ids = await verifiedFileIds(exportDir);
    assert.ok(ids.length > 60, 'the seed and some of the load were exported');
    // Sessions do not move with an export (docs/decisions.md): alice logs in again.
    const login = await target.client.call('POST', '/api/v1/auth/login', {
      body: { email: 'alice@example.com', password: 'alice password' },
    });
    assert.equal(login.status, 200, login.text);
    for (const id of ids) {
      const record = await target.client.call('GET', `/api/v1/file/${id}`, { token: login.body.token });
      assert.equal(record.status, 200, record.text);
      const download = await fetch(record.body.url);
      assert.equal(download.status, 200, `${id}: ${download.status}`);
      assert.equal(download.headers.get('etag'), record.body.etag, `${id} downloads with its ETag`);
      const bytes = Buffer.from(await download.arrayBuffer());
      assert.equal(String(bytes.length), record.body.meta.ContentLength);
      assert.equal(createHash('sha256').update(bytes).digest('base64'), record.body.meta.ChecksumSHA256);
    }
  } finally {
    await target.stop();
  }
}

// The same drill either way: the embedded pass runs it on PostgreSQL and s3rver of its own only
// when the run has no PostgreSQL + S3 pass, whose Ceph RGW is the real S3.
describe('coffer export while the server writes: the restore drill', {
  skip:
    currentStackName() === 'embedded' &&
    runsPass('pg-s3') &&
    'runs in the PostgreSQL + S3 pass, on its Ceph RGW',
}, () => {
  let work: string;
  let pgS3: TestStack | undefined;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'coffer-drill-'));
  });
  after(async () => {
    await pgS3?.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  it('an export of the embedded stack under uploads and shares restores into PostgreSQL + S3', async (t) => {
    pgS3 = await startPgS3();
    if (!pgS3) return t.skip('PostgreSQL is not installed (apt-get install -y postgresql)');
    await drill({ from: embedded, to: pgS3, work: path.join(work, 'to-pg-s3') });
  });

  it('an export of PostgreSQL + S3 under uploads and shares restores into the embedded stack', async (t) => {
    const stack = await startPgS3();
    if (!stack) return t.skip('PostgreSQL is not installed (apt-get install -y postgresql)');
    try {
      await drill({ from: stack, to: embedded, work: path.join(work, 'from-pg-s3') });
    } finally {
      await stack.cleanup();
    }
  });
});
