/**
 * "Shared with me" (issue 36, item 5): the first page of GET /api/v1/shared for a user with
 * 10,000 shares (8,000 files, 2,000 folders, a quarter by role) in the folder rows' project of
 * 1,000,000 files (smoke: 10,000), against a point read of one of the files shared with them.
 */
import type { LoadOptions } from '../run-load.ts';
import type { Scenario } from '../scenario.ts';
import { seedShares } from '../seed/seed-shares.ts';
import { seedWorkload } from '../seed/workload.ts';
import { folderWorld } from './folder-scenarios.ts';
import { loadSide } from './sides.ts';

export const sharedWithMe: Scenario = {
  id: 'shared-with-me',
  title:
    'GET /api/v1/shared first page (20 of 10,000 shares: files and folders, by id and by role) at 1,000,000 files (p50 vs GET /api/v1/file/:id)',
  unit: 'req/s',
  metric: 'p50',
  // The issue: a page costs a page, ≤ 3× a point read, whatever the caller's share count.
  target: 1 / 3,
  prepare: async (context) => {
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
    const { durationSeconds } = context.options;
    // One connection each: the cost of one request, not a queue's.
    const page: LoadOptions = {
      url: server.url,
      request: { method: 'GET', path: '/api/v1/shared', headers: grantee.headers },
      connections: 1,
      durationSeconds,
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
