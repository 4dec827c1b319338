/**
 * Issue 44 item 6, "the new capabilities cost nothing when unused": GET /api/v1/file/:id in a
 * project with versions, trash, scanning and an admission hook all on (the hook set, scanning by
 * a private clamd), against the same GET in a project with all of them off, on one
 * server that has a scanner (two servers differ by start order: folder-share-scenario.ts). A
 * server without the capabilities cannot be built; what this row shows is that the hot path does
 * not depend on them, and bench/profile/capability-frames.ts shows that a GET never enters their
 * code. Folder shares have their own row (folder-shares-hot-path).
 */

import { clamdMissing, startClamd } from '../../test/support/clamd.ts';
import { runCli } from '../../test/support/coffer-process.ts';
import type { CofferServer } from '../processes/coffer-server.ts';
import type { Scenario } from '../scenario.ts';
import { createProject, seedWorkload } from '../seed/workload.ts';
import { hotPathLoad } from './hot-path-scenarios.ts';
import { loadSide } from './sides.ts';

/** A hook nobody answers: a GET never calls it (only a verify would, and the load verifies nothing). */
const unansweredHook = 'http://127.0.0.1:9/admit';
const hookSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** `coffer project set`, as an operator does: the server sees it at its next settings read. */
async function setProject(server: CofferServer, assignments: string[]): Promise<void> {
  const stores = [
    '--data-dir',
    server.dataDir,
    ...(server.databaseUrl ? ['--database-url', server.databaseUrl] : []),
  ];
  const set = await runCli(['project', 'set', server.credentials.projectId, ...assignments, ...stores]);
  if (set.code !== 0) throw new Error(`coffer project set: ${set.stderr}`);
}

export const capabilitiesHotPath: Scenario = {
  id: 'capabilities-hot-path',
  title: 'GET /api/v1/file/:id, versions, trash, scanning and a hook on (vs all off, same server)',
  unit: 'req/s',
  metric: 'rate',
  // The issue: with the capabilities off the hot path is unchanged within 3 %.
  target: 0.97,
  prepare: async (context) => {
    if (clamdMissing) return { skipped: clamdMissing };
    const clamd = await startClamd({});
    context.onClose(() => clamd.close());
    const server = await context.startCoffer('capabilities', { env: { COFFER_SCAN_URL: clamd.url } });
    const on = await createProject(server, 'capabilities-on');
    const off = await createProject(server, 'capabilities-off');
    // Both files are scanned on their way in (clamd), so both records carry meta.scan and the two
    // GETs answer bodies of one size: the sides differ only by the project's settings at the load.
    const onWorkload = await seedWorkload(on, 'capabilities-on');
    const offWorkload = await seedWorkload(off, 'capabilities-off');
    // The hook after the seed: its upload would have asked it (nobody answers it).
    await setProject(on, [
      'scan=on',
      'versionsKept=10',
      'trashRetentionDays=30',
      `admissionUrl=${unansweredHook}`,
      `admissionSecret=${hookSecret}`,
    ]);
    await setProject(off, ['scan=off', 'versionsKept=0', 'trashRetentionDays=0']);
    const { connections, durationSeconds } = context.options;
    return {
      scenario: loadSide('all on', hotPathLoad(onWorkload, connections, durationSeconds)),
      baselines: [loadSide('all off', hotPathLoad(offWorkload, connections, durationSeconds))],
    };
  },
};
