/**
 * Folder shares on the hot path (issue 36, "Done when"): GET /api/v1/file/:id by a grantee who
 * reads the files through a share of their folder, in a project holding 1,000 folder shares
 * (smoke: 100), against the same reads in a project with no folder share, where an ACL entry of
 * each file names the reader instead. The two projects are alike but for that (the same files:
 * the owner's readable ones three folders deep, and the other owners' folders that the shares
 * name), and live on one server: two servers differed by the order they were started in (the
 * first ran 1.5× the CPU per request of the second whichever project it held), which one
 * process does not.
 */
import { setTimeout } from 'node:timers/promises';
import type { BenchContext } from '../bench-context.ts';
import type { CofferServer } from '../processes/coffer-server.ts';
import type { LoadOptions } from '../run-load.ts';
import type { Scenario } from '../scenario.ts';
import { seedServerRecords } from '../seed/seed-postgres-file-records.ts';
import { createProject, createServiceKey, mapLimit, seedWorkload, type Workload } from '../seed/workload.ts';
import { loadSide } from './sides.ts';

/** The folder the reader reads from, three deep, and its ancestors (each shared too, with roles). */
const readFolder = 'albums/2026/trip/';
const ancestorShares = [
  { path: 'albums/', role: 'family' },
  { path: 'albums/2026/', role: 'friends' },
];
/** Owners of the other shared folders (records seeded under these creator ids). */
const otherOwners = 10;
/** Files in each of the other shared folders. */
const filesPerOtherFolder = 2;

type ShareWorld = { reader: Workload; readIds: string[] };

/**
 * Seeds one project of the server (`server.credentials` name it): with `shares` > 0 the reader
 * reads through a share of the files' folder, one of `shares`; with 0, through each file's ACL.
 */
async function seedShareWorld(
  server: CofferServer,
  options: { name: string; shares: number; readFiles: number },
): Promise<ShareWorld> {
  const { name, shares, readFiles } = options;
  const owner = await seedWorkload(server, `${name}-owner`);
  const reader = await seedWorkload(server, `${name}-reader`);
  const serviceKey = await createServiceKey(server, name);
  const { projectId } = server.credentials;
  const width = String(readFiles).length;
  const seeded = await seedServerRecords(server, {
    projectId,
    creatorId: owner.userId,
    count: readFiles,
    sampleSize: readFiles,
    pathOf: (i) => `${readFolder}${String(i).padStart(width, '0')}.jpg`,
  });
  // The other owners' folders: as many as the shares that are not the reader's folder's own.
  const otherFolders = Math.max(0, shares - 1 - ancestorShares.length);
  const foldersPerOwner = Math.ceil(otherFolders / otherOwners);
  const otherFolderPaths: Array<{ owner: string; path: string; role: string }> = [];
  for (let k = 0; k < otherOwners; k++) {
    const creatorId = `bench-share-owner-${k}`;
    const folderOf = (f: number) => `projects/${String(Math.floor(f / 10)).padStart(3, '0')}/${f % 10}/`;
    await seedServerRecords(server, {
      projectId,
      creatorId,
      count: foldersPerOwner * filesPerOtherFolder,
      sampleSize: 0,
      pathOf: (i) => `${folderOf(Math.floor(i / filesPerOtherFolder))}${i % filesPerOtherFolder}.bin`,
    });
    for (let f = 0; f < foldersPerOwner && otherFolderPaths.length < otherFolders; f++)
      otherFolderPaths.push({ owner: creatorId, path: folderOf(f), role: `team-${k}-${f}` });
  }
  // Seeding blocks this process past the server's idle-connection timeout: let the client see the closes.
  await setTimeout(100);
  // The owner shares its own; the other owners' folders are shared by an admin, whose calls
  // take a service key (issue 35) naming whose folder it means.
  const post = async (path: string, body: Record<string, unknown>, serviceKey?: string) => {
    const answer = await owner.api.call(
      'POST',
      path,
      serviceKey ? { serviceKey, body } : { token: owner.token, body },
    );
    if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status} ${answer.text}`);
  };
  if (shares > 0) {
    await post('/api/v1/folders/share', { path: readFolder, user: reader.userId });
    for (const ancestor of ancestorShares) await post('/api/v1/folders/share', ancestor);
    await mapLimit(otherFolderPaths, 4, (folder) => post('/api/v1/folders/share', folder, serviceKey));
  } else {
    // No folder share: the reader is named by each file's own ACL instead.
    await mapLimit(seeded.sampleIds, 4, (id) => post(`/api/v1/file/${id}/acl/user/${reader.userId}`, {}));
  }
  await assertReadable(reader, seeded.sampleIds);
  return { reader, readIds: seeded.sampleIds };
}

/** The reader reads every one of the files, checked before anything is timed. */
async function assertReadable(reader: Workload, ids: readonly string[]): Promise<void> {
  await mapLimit(ids, 4, async (id) => {
    const answer = await reader.api.call('GET', `/api/v1/file/${id}`, { token: reader.token });
    if (answer.status !== 200)
      throw new Error(`the reader cannot read ${id}: ${answer.status} ${answer.text}`);
  });
}

/** Reads of random ones of the files: spread over them, not one record. */
function spreadReads(world: ShareWorld, context: BenchContext): LoadOptions {
  const { connections, durationSeconds } = context.options;
  const pathOf = () => `/api/v1/file/${world.readIds[Math.floor(Math.random() * world.readIds.length)]}`;
  return {
    url: world.reader.server.url,
    request: { method: 'GET', path: pathOf(), headers: world.reader.headers },
    connections,
    durationSeconds,
    nextRequest: () => ({ path: pathOf() }),
  };
}

export const folderSharesHotPath: Scenario = {
  id: 'folder-shares-hot-path',
  title:
    'GET /api/v1/file/:id through a folder share, 1,000 folder shares in the project (vs an ACL entry, none)',
  unit: 'req/s',
  metric: 'rate',
  // The issue: the hot path with 1,000 folder shares in the project stays ≥ 0.95× of none.
  target: 0.95,
  prepare: async (context) => {
    const { smoke } = context.options;
    const shares = smoke ? 100 : 1000;
    const readFiles = smoke ? 100 : 1000;
    const server = await context.startCoffer('folder-shares');
    const shared = await seedShareWorld(await createProject(server, 'folder-shares'), {
      name: 'shared',
      shares,
      readFiles,
    });
    const none = await seedShareWorld(server, { name: 'none', shares: 0, readFiles });
    return {
      scenario: loadSide(`${shares.toLocaleString('en')} shares`, spreadReads(shared, context)),
      baselines: [loadSide('ACL entry', spreadReads(none, context))],
    };
  },
};
