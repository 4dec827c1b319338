/**
 * What a folder move costs (issue 36): one POST /api/v1/folders/move of a folder of 10,000
 * files (smoke: 1,000) in ten subfolders, in files a second, against moving as many files one
 * POST /api/v1/file/:id/move at a time (10 connections). Each side moves its own files back and
 * forth between `a/` and `b/`, so every round moves the same rows. In this row a "request" is a
 * moved file: rates are files a second and CPU is per file on both sides.
 */
import { setTimeout } from 'node:timers/promises';
import type { BenchContext } from '../bench-context.ts';
import { measureCpu } from '../probes/process-cpu.ts';
import { runLoad } from '../run-load.ts';
import type { Measurement, Scenario, Side } from '../scenario.ts';
import { seedServerRecords } from '../seed/seed-postgres-file-records.ts';
import { seedWorkload, type Workload } from '../seed/workload.ts';
import { browseFolder, filesPerFolder, listFolderFiles, treePathOf } from './folder-tree.ts';

type MovedFile = { _id: string; filePath: string };

async function seedMover(context: BenchContext, files: number) {
  // On PostgreSQL one move of 10,000 files outlasts the default idle timeout (60 s), which
  // closes the socket of a request still being answered: this row measures the move, not that.
  const server = await context.startCoffer('folder-move', { env: { COFFER_IDLE_TIMEOUT_SECONDS: '1800' } });
  const mover = await seedWorkload(server, 'folder-mover');
  for (const side of ['folder-side', 'single-side'])
    await seedServerRecords(server, {
      projectId: server.credentials.projectId,
      creatorId: mover.userId,
      count: files,
      sampleSize: 0,
      pathOf: (i) => `${side}/a/${treePathOf(i)}`,
    });
  // Seeding blocks this process past the server's idle-connection timeout: let the client see the closes.
  await setTimeout(100);
  const leaves = Array.from({ length: Math.ceil(files / filesPerFolder) }, (_, leaf) =>
    treePathOf(leaf * filesPerFolder).replace(/[^/]*$/, ''),
  );
  const singles: MovedFile[] = [];
  for (const leaf of leaves) singles.push(...(await listFolderFiles(mover, `single-side/a/${leaf}`)));
  const counted = (await browseFolder(mover, 'folder-side/a/')).fileCount;
  if (singles.length !== files || counted !== files)
    throw new Error(`seeded ${files} files a side, the folders count ${counted} and list ${singles.length}`);
  return { mover, singles };
}

/** One folder move per run, alternating a/ → b/ and back. */
function folderMoveSide(mover: Workload, files: number): Side {
  let at = 'a';
  return {
    label: 'one folder move',
    run: async () => {
      const to = at === 'a' ? 'b' : 'a';
      return measureCpu(mover.server.url, async () => {
        const started = performance.now();
        const answer = await mover.api.call('POST', '/api/v1/folders/move', {
          token: mover.token,
          body: { from: `folder-side/${at}/`, to: `folder-side/${to}/` },
        });
        const ms = performance.now() - started;
        const moved = answer.status === 200 ? (answer.body.moved as number) : 0;
        if (moved !== files) console.error(`  folder move: ${answer.status} ${answer.text}`);
        else at = to;
        return toMeasurement(moved, files - moved, ms);
      });
    },
  };
}

function toMeasurement(moved: number, failed: number, ms: number): Measurement {
  return {
    requests2xx: moved,
    non2xx: failed,
    errors: 0,
    durationSeconds: ms / 1000,
    requestsPerSecond: moved / (ms / 1000),
    // The one call's time: the row's latency is that of the whole move.
    latencyP50Ms: ms,
    latencyP99Ms: ms,
  };
}

/** The same number of files moved one call each, alternating a/ → b/ and back. */
function singleMovesSide(mover: Workload, singles: readonly MovedFile[], connections: number): Side {
  let at = 'a';
  return {
    label: 'single moves',
    run: async () => {
      const to = at === 'a' ? 'b' : 'a';
      let next = 0;
      const measured = await runLoad({
        url: mover.server.url,
        request: { method: 'POST', headers: { ...mover.headers, 'content-type': 'application/json' } },
        connections,
        amount: singles.length,
        nextRequest: () => {
          const file = singles[next++ % singles.length]!;
          const filePath = file.filePath.replace('single-side/a/', `single-side/${to}/`);
          return { path: `/api/v1/file/${file._id}/move`, body: JSON.stringify({ filePath }) };
        },
      });
      if (measured.non2xx === 0 && measured.errors === 0) at = to;
      return measured;
    },
  };
}

export const folderMove: Scenario = {
  id: 'folder-move',
  title:
    'POST /api/v1/folders/move of 10,000 files in 10 subfolders, 4 deep (files/s vs as many POST /api/v1/file/:id/move, 10 connections)',
  unit: 'files/s',
  metric: 'rate',
  prepare: async (context) => {
    const files = context.options.smoke ? 1000 : 10_000;
    const { mover, singles } = await seedMover(context, files);
    return {
      scenario: folderMoveSide(mover, files),
      baselines: [singleMovesSide(mover, singles, context.options.connections)],
    };
  },
};
