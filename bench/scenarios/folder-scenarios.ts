/**
 * Folders (issue 36). "Cost is a page": the first page of a folder of 1,000 direct files, deep
 * in one owner's tree, in a project of 1,000,000 files (smoke: 10,000) spread over the trees of
 * four owners, against a point read (GET /api/v1/file/:id) on the same server. And what a
 * folder move costs: one call moving 10,000 files (smoke: 1,000), in files a second, against
 * the same number of single-file moves (bench/scenarios/folder-move-scenario.ts).
 */
import { setTimeout } from 'node:timers/promises';
import type { BenchContext } from '../bench-context.ts';
import type { LoadOptions } from '../run-load.ts';
import type { Scenario } from '../scenario.ts';
import { seedServerRecords } from '../seed/seed-postgres-file-records.ts';
import { seedWorkload, type Workload } from '../seed/workload.ts';
import { browseFolder, filesPerFolder, treePathOf } from './folder-tree.ts';
import { loadSide } from './sides.ts';

/** The reader's share of the project; three other owners hold the rest in trees of the same shape. */
const readerShare = 0.4;
const otherOwners = 3;

type FolderWorld = {
  reader: Workload;
  target: string;
  /** Every leaf folder of the reader's tree (1,000 direct files each). */
  leaves: string[];
  readIds: string[];
  projectFiles: number;
};

async function seedFolderWorld(context: BenchContext): Promise<FolderWorld> {
  const projectFiles = context.options.manyRecords;
  const server = await context.startCoffer('folders-scale');
  const reader = await seedWorkload(server, 'folders-reader');
  const { projectId } = server.credentials;
  const readerFiles = Math.round(projectFiles * readerShare);
  const started = performance.now();
  const seeded = await seedServerRecords(server, {
    projectId,
    creatorId: reader.userId,
    count: readerFiles,
    sampleSize: 10_000,
    pathOf: treePathOf,
  });
  const othersFiles = Math.floor((projectFiles - readerFiles - 1) / otherOwners);
  for (let owner = 0; owner < otherOwners; owner++)
    await seedServerRecords(server, {
      projectId,
      creatorId: `bench-folder-owner-${owner}`,
      count: othersFiles,
      sampleSize: 0,
      pathOf: treePathOf,
    });
  const total = 1 + readerFiles + otherOwners * othersFiles;
  console.log(
    `  folders-scale: seeded ${total.toLocaleString('en')} file records in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // Seeding blocks this process past the server's idle-connection timeout: let the client see the closes.
  await setTimeout(100);
  // A folder in the middle of the reader's tree: 1,000 direct files, three folders deep.
  const target = treePathOf(Math.floor(readerFiles / filesPerFolder / 2) * filesPerFolder).replace(
    /[^/]*$/,
    '',
  );
  await assertCountsExact(reader, { root: readerFiles + 1, target });
  const leaves = Array.from({ length: Math.floor(readerFiles / filesPerFolder) }, (_, leaf) =>
    treePathOf(leaf * filesPerFolder).replace(/[^/]*$/, ''),
  );
  return { reader, target, leaves, readIds: seeded.sampleIds, projectFiles: total };
}

/**
 * The seeded rows have their folder rows as uploads would make them (SQLite's triggers fire per
 * row; PostgreSQL's seeding recounts them), checked through the API before anything is timed.
 */
async function assertCountsExact(
  reader: Workload,
  expected: { root: number; target: string },
): Promise<void> {
  const root = await browseFolder(reader, '');
  const folder = await browseFolder(reader, expected.target);
  if (
    root.fileCount !== expected.root ||
    folder.fileCount !== filesPerFolder ||
    folder.files.length === 0 ||
    folder.nextCursor === null
  )
    throw new Error(
      `the folder counts are not those of the seeded rows: root ${root.fileCount} (expected ${expected.root}), ${expected.target} ${folder.fileCount} (expected ${filesPerFolder})`,
    );
}

const worlds = new WeakMap<BenchContext, Promise<FolderWorld>>();

export function folderWorld(context: BenchContext): Promise<FolderWorld> {
  let world = worlds.get(context);
  if (!world) {
    world = seedFolderWorld(context);
    worlds.set(context, world);
  }
  return world;
}

/**
 * A folder's first page against a point read. `pageSize` absent: the API's default page (100
 * files); 20 is the listing's default page, which the issue's other page rows read. One folder
 * asked again and again is a warm page: its records are the ones the server keeps (as a point
 * read's are), so each request reads the page's keys and no record. `cold`: the first page of
 * a random one of the reader's 400 leaf folders, 40,000 records in all against the 5,000 a
 * server keeps (file-view-cache.ts), so nearly every page is read and built whole.
 */
function folderFirstPage(options: { pageSize?: number; cold?: boolean } = {}): Scenario {
  const { pageSize, cold = false } = options;
  const files = pageSize ?? defaultFolderPageSize;
  const id = `folder-page-scale${pageSize === undefined ? '' : `-${pageSize}`}${cold ? '-cold' : ''}`;
  return {
    id,
    title: `GET /api/v1/folders first page (${files} of ${cold ? 'a random one of 400 folders' : 'a folder'} of 1,000 files, 3 deep) at 1,000,000 files (p50 vs GET /api/v1/file/:id)`,
    unit: 'req/s',
    metric: 'p50',
    // The issue: the first page of a folder at 1,000,000 files costs ≤ 3× a point read.
    target: 1 / 3,
    prepare: async (context) => {
      const world = await folderWorld(context);
      const { reader } = world;
      const { durationSeconds } = context.options;
      const pathOf = (folder: string) => {
        const query = new URLSearchParams({ path: folder });
        if (pageSize !== undefined) query.set('pageSize', String(pageSize));
        return `/api/v1/folders?${query}`;
      };
      // One connection each: the cost of one request, not a queue's.
      const page: LoadOptions = {
        url: reader.server.url,
        request: { method: 'GET', path: pathOf(world.target), headers: reader.headers },
        connections: 1,
        durationSeconds,
        ...(cold && {
          nextRequest: () => ({
            path: pathOf(world.leaves[Math.floor(Math.random() * world.leaves.length)]!),
          }),
        }),
      };
      // Random ones of the reader's files: reads spread over the table, not one cached row.
      const pointReads: LoadOptions = {
        url: reader.server.url,
        request: { method: 'GET', path: `/api/v1/file/${world.readIds[0]}`, headers: reader.headers },
        connections: 1,
        durationSeconds,
        nextRequest: () => ({
          path: `/api/v1/file/${world.readIds[Math.floor(Math.random() * world.readIds.length)]}`,
        }),
      };
      return {
        scenario: loadSide(`${world.projectFiles.toLocaleString('en')} files`, page),
        baselines: [loadSide('point read', pointReads)],
      };
    },
  };
}

/** The API's default folder page (src/http/control/folders/). */
const defaultFolderPageSize = 100;

export const folderPageScale = folderFirstPage();
export const folderPageScale20 = folderFirstPage({ pageSize: 20 });
export const folderPageScaleCold = folderFirstPage({ cold: true });
