/**
 * "Shared with me" (issue 36, item 5): the first page of GET /api/v1/shared for a user with
 * 10,000 shares (8,000 files, 2,000 folders, a quarter by role) in the folder rows' project of
 * 1,000,000 files (smoke: 10,000), against a point read of one of the files shared with them;
 * and the same at a random page (shared-with-me-cold), whose records are rarely kept.
 */
import type { BenchContext } from '../bench-context.ts';
import type { LoadOptions } from '../run-load.ts';
import type { Scenario } from '../scenario.ts';
import { seedShares } from '../seed/seed-shares.ts';
import { seedWorkload, type Workload } from '../seed/workload.ts';
import { folderWorld } from './folder-scenarios.ts';
import { loadSide } from './sides.ts';

type SharesWorld = {
  world: Awaited<ReturnType<typeof folderWorld>>;
  grantee: Workload;
  /** Ids of files shared with the grantee (its first 100 shares' files). */
  fileIds: string[];
};

async function seedSharesWorld(context: BenchContext): Promise<SharesWorld> {
  const world = await folderWorld(context);
  const server = world.reader.server;
  const grantee = await seedWorkload(server, 'shared-grantee');
  await seedShares(server, {
    projectId: server.credentials.projectId,
    granteeId: grantee.userId,
    granteeRole: 'user',
    ownerPrefix: 'bench-folder-owner-',
    files: 8_000,
    folders: 2_000,
  });
  const first = await grantee.api.call('GET', '/api/v1/shared?pageSize=100', { token: grantee.token });
  const fileIds = (first.body.items as Array<{ kind: string; file?: { _id: string } }>).flatMap((item) =>
    item.file ? [item.file._id] : [],
  );
  if (first.status !== 200 || fileIds.length === 0 || first.body.nextCursor === null)
    throw new Error(`shared-with-me: the seeded shares are not listed: ${first.status} ${first.text}`);
  return { world, grantee, fileIds };
}

const sharesWorlds = new WeakMap<BenchContext, Promise<SharesWorld>>();

function sharesWorld(context: BenchContext): Promise<SharesWorld> {
  let world = sharesWorlds.get(context);
  if (!world) {
    world = seedSharesWorld(context);
    sharesWorlds.set(context, world);
  }
  return world;
}

/** Every page's cursor of the grantee's shares, `pageSize` at a time, by following nextCursor. */
async function pageCursors(grantee: Workload, pageSize: number): Promise<string[]> {
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `pageSize=${pageSize}${cursor === null ? '' : `&cursor=${cursor}`}`;
    const page = await grantee.api.call('GET', `/api/v1/shared?${query}`, { token: grantee.token });
    if (page.status !== 200) throw new Error(`shared-with-me-cold: ${page.status} ${page.text}`);
    cursor = page.body.nextCursor;
    if (cursor !== null) cursors.push(cursor);
  } while (cursor !== null);
  return cursors;
}

/**
 * The page of 20 shares against a point read of a shared file. Warm (`cold` false): the first
 * page asked again, as a user coming back to it sees it; its records are the kept ones
 * (file-view-cache.ts), so a request reads the share ranges and no record. Cold: the page after
 * a random one of the 499 cursors of the grantee's 10,000 shares each request, 8,000 files over
 * them against the 5,000 records a server keeps (point reads keep theirs too), so nearly every
 * page reads and builds its records whole. A page after a cursor reads the same four index
 * ranges as the first page, entered at the cursor's share time instead of the newest.
 */
function sharedPage(options: { cold: boolean }): Scenario {
  const { cold } = options;
  return {
    id: cold ? 'shared-with-me-cold' : 'shared-with-me',
    title: `GET /api/v1/shared ${cold ? 'page after a random cursor' : 'first page'} (20 of 10,000 shares: files and folders, by id and by role) at 1,000,000 files (p50 vs GET /api/v1/file/:id)`,
    unit: 'req/s',
    metric: 'p50',
    // The issue: a page costs a page, ≤ 3× a point read, whatever the caller's share count.
    target: 1 / 3,
    prepare: async (context) => {
      const { world, grantee, fileIds } = await sharesWorld(context);
      const server = world.reader.server;
      const cursors = cold ? await pageCursors(grantee, defaultSharedPageSize) : [];
      const pathOf = (cursor?: string) =>
        cursor === undefined ? '/api/v1/shared' : `/api/v1/shared?${new URLSearchParams({ cursor })}`;
      const { durationSeconds } = context.options;
      // One connection each: the cost of one request, not a queue's.
      const page: LoadOptions = {
        url: server.url,
        request: { method: 'GET', path: pathOf(cursors[0]), headers: grantee.headers },
        connections: 1,
        durationSeconds,
        ...(cold && {
          nextRequest: () => ({ path: pathOf(cursors[Math.floor(Math.random() * cursors.length)]) }),
        }),
      };
      const pointReads: LoadOptions = {
        url: server.url,
        request: { method: 'GET', path: `/api/v1/file/${fileIds[0]}`, headers: grantee.headers },
        connections: 1,
        durationSeconds,
        nextRequest: () => ({ path: `/api/v1/file/${fileIds[Math.floor(Math.random() * fileIds.length)]}` }),
      };
      return {
        scenario: loadSide(`${world.projectFiles.toLocaleString('en')} files, 10,000 shares`, page),
        baselines: [loadSide('point read of a shared file', pointReads)],
      };
    },
  };
}

/** The API's default page of GET /api/v1/shared (src/domain/folders/shared-with-me.ts). */
const defaultSharedPageSize = 20;

export const sharedWithMe = sharedPage({ cold: false });
export const sharedWithMeCold = sharedPage({ cold: true });
