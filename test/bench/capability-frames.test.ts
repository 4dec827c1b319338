// Issue 44 item 6's evidence: a profile says how much of a request's time had a frame of each
// capability's code on its stack (bench/profile/capability-frames.ts). A synthetic profile, so
// the attribution is checked exactly: by the script on any frame of the stack, within the window.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { capabilityGroups } from '../../bench/profile/capability-frames.ts';
import { summarizeProfile } from '../../bench/profile/top-frames.ts';

const root = path.resolve(import.meta.dirname, '../..');
const at = (file: string) => pathToFileURL(path.join(root, file)).href;

/** root → handler → (trash code → sqlite) | (folder-share read) | (native write); idle. */
function profile() {
  const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
    id,
    callFrame: { functionName, url, lineNumber: 0 },
    children,
  });
  return {
    nodes: [
      frame(1, '(root)', '', [2, 7]),
      frame(2, 'getWithDownloadLink', at('src/domain/files/file-reading.ts'), [3, 5, 6]),
      frame(3, 'listTrash', at('src/persistence/repositories/trash/list-trash.ts'), [4]),
      frame(4, 'run', at('src/persistence/node-sqlite-dialect.ts')),
      frame(5, 'findFolderAcls', at('src/persistence/repositories/files/folder-acl-rows.ts')),
      frame(6, 'writeUtf8String', ''),
      frame(7, '(idle)', ''),
    ],
    // Each sample stands for the next delta (1 ms each); the last one (an idle) for none.
    samples: [4, 4, 5, 6, 6, 6, 6, 6, 3, 7, 7],
    timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
    startTime: 0,
  };
}

test('each capability counts the samples with a frame of its scripts anywhere on the stack', () => {
  const summary = summarizeProfile(profile(), 5, undefined, capabilityGroups);
  const ms = Object.fromEntries(summary.stackGroups.map((group) => [group.name, group.ms]));
  assert.equal(summary.busyMs, 9);
  assert.equal(ms['trash (issue 38)'], 3); // two samples under it (sqlite), one of its own
  assert.equal(ms['folder shares (issue 36)'], 1);
  // Every group is listed, those no sample entered with 0 ms.
  assert.equal(ms['versions (issue 38)'], 0);
  assert.equal(ms['scanning (issue 42)'], 0);
  assert.equal(ms['admission hooks (issue 42)'], 0);
});

test('only the samples within the window count (the load, not the seeding)', () => {
  // Samples are taken at 0, 1, 2 … ms: the window 2.5–7.5 ms holds the native writes only.
  const summary = summarizeProfile(profile(), 5, { fromUs: 2500, toUs: 7500 }, capabilityGroups);
  assert.equal(summary.busyMs, 5);
  assert.ok(summary.stackGroups.every((group) => group.ms === 0));
});
