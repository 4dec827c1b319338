import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Another process (a backup, an export, the bench's seeding) writes a WAL larger than the
 * checkpoint thread's RESTART threshold (64 MiB) and then keeps a read transaction open on it.
 * WAL's promise is that a reader never blocks the writer: the server's writes must go on. The
 * checkpoint thread's RESTART waits for that reader while holding the write lock; with
 * busy_timeout as its wait and a timer that fired again at once, it held the lock nearly all
 * the time and every write of the server answered 503 UNAVAILABLE for as long as the reader
 * stayed.
 */
const outsider = `
  import { DatabaseSync } from 'node:sqlite';
  const file = process.argv[1];
  const writer = new DatabaseSync(file);
  writer.exec('pragma busy_timeout = 30000');
  // The reader below must start on frames still in the WAL, as one does beside a busy writer.
  writer.exec('pragma wal_autocheckpoint = 0');
  writer.exec('create table if not exists outside_ballast (b blob)');
  const insert = writer.prepare('insert into outside_ballast (b) values (randomblob(1048576))');
  writer.exec('begin immediate');
  for (let i = 0; i < 80; i++) insert.run();
  writer.exec('commit');
  const reader = new DatabaseSync(file);
  reader.exec('begin');
  reader.prepare('select count(*) from outside_ballast').get();
  process.stdout.write('reading\\n');
  process.stdin.resume();
  process.stdin.on('end', () => { reader.exec('commit'); process.exit(0); });
`;

describe('a long reader in another process beside a large WAL (SQLite)', () => {
  let server: TestServer;
  let child: ChildProcess | undefined;
  before(async () => {
    server = await startTestServer({}, { COFFER_DATABASE_BUSY_TIMEOUT_MS: '1000' });
  });
  after(async () => {
    child?.stdin?.end();
    if (child && child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    await server.stop();
  });

  it("leaves the server's writes working while the reader holds its snapshot", async (t) => {
    if (currentStackName() !== 'embedded') return t.skip('SQLite only');
    const file = path.join(server.dataDir, 'coffer.db');
    child = spawn(process.execPath, ['--input-type=module', '-e', outsider, file], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.on('error', (error) => assert.fail(error));
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    assert.equal(line.toString().trim(), 'reading');
    // Long enough for the checkpoint thread (100 ms ticks) to copy the WAL and reach its RESTART.
    for (let i = 0; i < 6; i++) {
      const response = await server.client.call('POST', '/api/v1/auth/signup', {
        body: { email: `long-reader-${i}@example.com`, password: 'correct horse battery' },
      });
      assert.equal(response.status, 200, `write ${i}: ${response.text}`);
    }
  });

  it('gives the WAL its disk space back once the reader is gone, with no write needed', async (t) => {
    if (currentStackName() !== 'embedded') return t.skip('SQLite only');
    assert.ok(child, 'the first test started the other process');
    child.stdin?.end();
    if (child.exitCode === null) await once(child, 'exit');
    const wal = path.join(server.dataDir, 'coffer.db-wal');
    // The bound is generous for a busy machine; the thread retries every 100 ms to 5 s.
    const deadline = Date.now() + 60_000;
    while (statSync(wal).size > 1024 * 1024 && Date.now() < deadline) await sleep(100);
    assert.ok(statSync(wal).size <= 1024 * 1024, `the WAL still holds ${statSync(wal).size} bytes`);
  });
});
