// How run-tests.js spreads a pass's test files over processes (issue 44, item 7). A test file's
// process paid ~2 CPU-seconds before its first test: Node, ~1,750 modules of src/ and its
// packages, and the schemas its first server compiles. Most files now share a process with a few
// others (node --test --test-isolation=none runs them one after another in it), so that cost is
// paid once per batch. A file keeps a process of its own when sharing would change what it does:
//   - a hook at its top level (`before(…)`, `after(…)`): in a shared process it would hook every
//     file's tests, and run only when the whole batch ends;
//   - an `await` at its top level: all of a batch's files are imported before the first test
//     runs, so a file that starts a server or a cluster while loading would keep it up meanwhile;
//   - a test of what a fresh process loads (below): in a shared one, the others loaded it first;
//   - a kill -9 suite (test/crash/): it waits on restarts far more than it computes, so it starts
//     first, on its own, and the other units fill its waits (a batch of them ran 6 minutes in a row).
// COFFER_TEST_SHARED_PROCESSES=0 gives every file a process of its own, as before, to rule out
// that two files of one process disturb each other.
import { readFileSync, statSync } from 'node:fs';

/** Files that measure what a process of their own loads or starts. */
const ownProcessFiles = new Set([
  'test/api/server-start-loading.test.ts',
  'test/cli/command-loading.test.ts',
]);

/** Files per shared process: large enough to pay the start once for many, small enough to balance two at a time. */
const batchSize = 6;

const topLevelHook = /^(?:before|after|beforeEach|afterEach)\(/m;
const topLevelAwait = /^(?:(?:const|let|var)\s[^=\n]+=\s*)?await\s/m;

/** Files that wait more than they compute: each in a process of its own, started first. */
const waitsMost = (file) => file.startsWith('test/crash/');

/** Whether a test file must run in a process of its own (see above). */
export function needsOwnProcess(file) {
  if (ownProcessFiles.has(file) || waitsMost(file)) return true;
  const source = readFileSync(file, 'utf8');
  return topLevelHook.test(source) || topLevelAwait.test(source);
}

/**
 * The pass's files as units, each one process: `{ files, shared }`. Neighbouring files (one
 * folder's, mostly) share a batch. The kill -9 suites come first, then the units largest first
 * by source size, a rough measure of how long each runs, so that a pass's two processes at a
 * time end close together.
 */
export function planUnits(files, shareProcesses = process.env.COFFER_TEST_SHARED_PROCESSES !== '0') {
  if (!shareProcesses) return files.map((file) => ({ files: [file], shared: false }));
  const units = [];
  let batch = [];
  const closeBatch = () => {
    if (batch.length > 0) units.push({ files: batch, shared: batch.length > 1 });
    batch = [];
  };
  for (const file of files) {
    if (needsOwnProcess(file)) {
      units.push({ files: [file], shared: false });
      continue;
    }
    batch.push(file);
    if (batch.length === batchSize) closeBatch();
  }
  closeBatch();
  const size = (unit) => unit.files.reduce((sum, file) => sum + statSync(file).size, 0);
  const first = (unit) => (waitsMost(unit.files[0]) ? 1 : 0);
  return units
    .map((unit) => ({ unit, bytes: size(unit) }))
    .sort((a, b) => first(b.unit) - first(a.unit) || b.bytes - a.bytes)
    .map(({ unit }) => unit);
}
