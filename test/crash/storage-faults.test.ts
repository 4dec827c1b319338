import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { startCofferProcess } from '../support/coffer-process.ts';
import { listReferencedBlobFiles } from '../support/database-integrity.ts';
import {
  type FaultyDiskKind,
  findFaultyDiskObstacle,
  mountFaultyDisk,
  skipFaultyDiskKind,
} from '../support/faulty-disk.ts';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName, prepareTestStack } from '../support/test-stack.ts';
import { type Answer, planUploads, runUploads, toUnexpectedAnswers } from './crash-round.ts';
import { restartAndCheck } from './crash-target.ts';

const MiB = 1024 * 1024;
const faults: { kind: FaultyDiskKind; sizeBytes: number; what: string; expected: Answer[] }[] = [
  {
    kind: 'full',
    sizeBytes: 2 * MiB,
    what: 'a disk that fills up (write fails: ENOSPC)',
    expected: [{ status: 507, code: 'STORAGE_FULL' }],
  },
  {
    kind: 'thin',
    sizeBytes: 2 * MiB,
    what: 'a thin disk run dry (fsync fails: ENOSPC)',
    // The loop device's own write error may reach the file system as EIO (or a read-only
    // remount): that write then answers as the device failure it looks like.
    expected: [
      { status: 507, code: 'STORAGE_FULL' },
      { status: 503, code: 'UNAVAILABLE' },
    ],
  },
  {
    kind: 'failing',
    sizeBytes: 2 * MiB,
    what: 'a disk with bad sectors (fsync fails: EIO)',
    expected: [{ status: 503, code: 'UNAVAILABLE' }],
  },
];

/**
 * The fs store on real failing filesystems (the database stays on its own disk): 32
 * concurrent uploads of up to 3 MiB (on 2 MiB of room) meet write and fsync errors, then the server is killed,
 * the disk repaired, and the restarted server held to the same checks as the kill -9 rounds.
 */
describe(`uploads on failing disks, then kill -9 (fs store, ${currentStackName()} database)`, () => {
  const seed = chooseSeed('storage faults');
  let obstacle: string | undefined;
  const refusals = new Map<FaultyDiskKind, Answer[]>();
  before(async () => {
    obstacle = await findFaultyDiskObstacle();
  });

  for (const [index, fault] of faults.entries()) {
    it(`${fault.what}: no crash, nothing partial or stray kept, every answered upload intact`, {
      timeout: 900_000,
    }, async (t) => {
      if (obstacle) return t.skip(obstacle);
      const skipped = skipFaultyDiskKind(fault.kind);
      if (skipped) return t.skip(skipped);
      const disk = await mountFaultyDisk(fault.kind, { sizeBytes: fault.sizeBytes });
      const storeDir = path.join(disk.dir, 'blobs');
      // The store's URL in the stack's environment (not a flag), so that the checks after the
      // restart and any CLI command given coffer.env look at the faulty disk too.
      const stack = await prepareTestStack();
      const storeEnv = { ...stack.env, COFFER_STORAGE_URL: `file:${storeDir}` };
      const coffer = await startCofferProcess({ stack: { ...stack, env: storeEnv } });
      const target = { coffer, token: '' };
      try {
        const { token } = await coffer.client.signup();
        target.token = token;
        const random = seededRandom(seed + index);
        const prefix = `fault-${fault.kind}`;
        const plans = planUploads(random, { prefix, maxSizeBytes: 3 * MiB });
        // No kill switch: every request is answered, and then the store must be tidy.
        const journals = await runUploads({ coffer, token, plans, random });
        const refused = journals.flatMap((journal) =>
          journal.puts.flatMap((put) => (put.answer && put.answer.status !== 200 ? [put.answer] : [])),
        );
        refusals.set(fault.kind, refused);
        t.diagnostic(
          `${fault.kind}: ${refused.length} uploads refused: ${[...new Set(refused.map((answer) => `${answer.status} ${answer.code}`))].join(', ')}`,
        );
        assert.ok(refused.length > 0, 'the faulty disk should have refused some uploads');
        // Which error each answers is the test below; here, none of them may keep anything.
        assert.deepEqual(toUnexpectedAnswers(journals.map((journal) => ({ ...journal, puts: [] }))), []);
        assert.equal(
          (await fetch(`${coffer.baseUrl}/healthz`)).status,
          200,
          'the server survived the faults',
        );
        assert.deepEqual(await readdir(path.join(storeDir, '.tmp')), [], 'temp files of failed uploads');
        const stored = (await readdir(storeDir, { recursive: true })).filter((name) =>
          name.endsWith('.blob'),
        );
        const referenced = new Set(await listReferencedBlobFiles(coffer));
        assert.deepEqual(
          stored.filter((name) => !referenced.has(name)),
          [],
          'blob versions no record points at',
        );
        await coffer.kill();
        await disk.repair();
        await restartAndCheck(target, { prefix, journals, context: `${fault.kind} (seed ${seed})` });
      } finally {
        await target.coffer.stop();
        await stack.cleanup();
        await disk.remove();
      }
    });
  }

  it('each refused upload answers 507 STORAGE_FULL (no room) or 503 UNAVAILABLE (I/O error)', (t) => {
    if (obstacle) return t.skip(obstacle);
    for (const fault of faults)
      for (const answer of refusals.get(fault.kind) ?? [])
        assert.ok(
          fault.expected.some(
            (expected) => expected.status === answer.status && expected.code === answer.code,
          ),
          `${fault.what}: ${JSON.stringify(answer)}`,
        );
  });
});
