import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { QuotaLimits } from '../../src/domain/files/storage-usage-repository.ts';
import { assertDatabaseIntegrity } from '../support/database-integrity.ts';
import { chooseSeed, isLongRun } from '../support/fuzz-settings.ts';
import { currentStackName } from '../support/test-stack.ts';
import { playStep, type RaceUser, raceStep, type SeedFile } from './quota-race-steps.ts';
import {
  assertWithinQuotas,
  freshConnection,
  readConsoleUsage,
  settled,
  useQuotaRaceTarget,
} from './quota-race-target.ts';

// Issue 25, item 3: every limit is re-checked where it is committed. Random concurrent mixes of
// uploads (declared and not), copies (also of another user's file), moves and deletes run
// against small quotas, spread over two worker processes (embedded) or two nodes on one
// PostgreSQL (pg-s3). The console's usage is polled all along: no observation may be past a
// quota; afterwards the usage counters must equal a recount of the live file rows.

const stack = currentStackName();
const target = stack === 'embedded' ? 'serve --workers 2' : 'two nodes on one PostgreSQL';
const noQuotas: QuotaLimits = {
  userQuotaBytes: null,
  userQuotaFiles: null,
  projectQuotaBytes: null,
  projectQuotaFiles: null,
};

describe(`quotas under concurrent writers (${stack}: ${target})`, () => {
  const race = useQuotaRaceTarget();

  /** A race's project with these quotas, and two users of it. */
  const setUp = async (quotas: QuotaLimits) => {
    const project = await race.createProject(quotas);
    const users: RaceUser[] = [];
    // Each on its own node where there are two.
    for (const index of [0, 1]) users.push(await project.clients[index % project.clients.length]!.signup());
    return { project, users };
  };
  /** Polls the console's usage until the answered stop() and checks every sample against the quotas. */
  const watchUsage = (projectId: string, quotas: QuotaLimits) => {
    let running = true;
    let samples = 0;
    const polling = (async () => {
      while (running) {
        assertWithinQuotas(await readConsoleUsage(race, projectId), quotas, `sample ${++samples}`);
      }
    })();
    polling.catch(() => {}); // a sample past a quota is reported by the stop below
    return async () => {
      running = false;
      await polling;
      return samples;
    };
  };
  /** After a race: within the quotas, and the counters equal the recount of the rows (all projects). */
  const assertSettled = async (projectId: string, quotas: QuotaLimits) => {
    const usage = await readConsoleUsage(race, projectId);
    assertWithinQuotas(usage, quotas, 'after the race');
    await assertDatabaseIntegrity(race.nodes[0]!);
    return usage;
  };

  it('12 concurrent copies of a 400 KiB file against userQuotaBytes=1 MiB keep one, round after round', async () => {
    const quotas = { ...noQuotas, userQuotaBytes: 1024 * 1024 };
    const { project, users } = await setUp(quotas);
    const [owner] = users as [RaceUser];
    const sizeBytes = 400 * 1024;
    const source = await project.clients[0]!.uploadFile(
      owner.token,
      'source.bin',
      Buffer.alloc(sizeBytes, 3),
    );
    for (let round = 0; round < 4; round++) {
      const stop = watchUsage(project.projectId, quotas);
      const copies = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          settled(() =>
            project.clients[index % project.clients.length]!.call('POST', `/api/v1/file/${source._id}/copy`, {
              token: owner.token,
              body: { filePath: `copies/${round}-${index}.bin` },
              headers: freshConnection,
            }),
          ),
        ),
      );
      await stop();
      const kept = copies.filter((copy) => copy.status === 200);
      for (const copy of copies)
        if (copy.status !== 200) assert.equal(copy.body.code, 'QUOTA_EXCEEDED', copy.text);
      // 2 × 400 KiB ≤ 1 MiB < 3 × 400 KiB: the source and one copy.
      assert.equal(kept.length, 1, `round ${round}: ${copies.map((copy) => copy.status).join(' ')}`);
      const usage = await assertSettled(project.projectId, quotas);
      assert.deepEqual({ files: usage.files, bytes: usage.bytes }, { files: 2, bytes: 2 * sizeBytes });
      const removed = await project.clients[0]!.call('DELETE', `/api/v1/file/${kept[0]!.body._id}`, {
        token: owner.token,
      });
      assert.equal(removed.status, 204, removed.text);
    }
  });

  it('random mixes of uploads, copies, moves and deletes never pass a quota; usage equals the rows', async () => {
    const quotas = fc
      .record({
        userQuotaBytes: fc.option(fc.integer({ min: 800, max: 4000 }), { nil: null }),
        userQuotaFiles: fc.option(fc.integer({ min: 2, max: 6 }), { nil: null }),
        projectQuotaBytes: fc.option(fc.integer({ min: 1500, max: 6000 }), { nil: null }),
        projectQuotaFiles: fc.option(fc.integer({ min: 3, max: 9 }), { nil: null }),
      })
      .filter((limits) => Object.values(limits).some((limit) => limit !== null));
    const seedSizes = fc.array(fc.integer({ min: 1, max: 1200 }), { minLength: 4, maxLength: 4 });
    const steps = fc.array(raceStep, { minLength: 16, maxLength: 40 });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(quotas, seedSizes, steps, async (limits, sizes, mix) => {
        const run = ++runs;
        const { project, users } = await setUp(limits);
        // Verified files to copy, move and delete, made one at a time (a quota may refuse some).
        const seeds: SeedFile[] = [];
        for (const [index, sizeBytes] of sizes.entries()) {
          const owner = index % 2;
          const made = await project.clients[0]!.uploadFile(
            users[owner]!.token,
            `seed/${index}.bin`,
            Buffer.alloc(sizeBytes, 5),
            {
              permissionScope: '*',
            },
          ).catch((error: Error) => {
            assert.match(error.message, /QUOTA_EXCEEDED/);
            return undefined;
          });
          if (made) seeds.push({ fileId: made._id, owner });
        }
        const stop = watchUsage(project.projectId, limits);
        const played = await Promise.allSettled(
          mix.map((step, index) => playStep(project, users, seeds, step, `run${run}/step${index}`)),
        );
        const samples = await stop();
        const failed = played.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
        if (failed.length > 0) throw failed[0];
        assert.ok(samples > 0, 'the usage was observed during the race');
        await assertSettled(project.projectId, limits);
      }),
      // A failing mix is reported as found, not shrunk: every try costs a real race.
      { seed: chooseSeed('quota races'), numRuns: numRuns(), endOnFailure: true },
    );
  });
});

/** Each run is a real race over HTTP: a few on each stack (~1 minute), ten times as many in a long run. */
function numRuns(): number {
  const base = stack === 'embedded' ? 30 : 12;
  return isLongRun ? base * 10 : base;
}
