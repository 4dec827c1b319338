// A node:test reporter that writes, per test file, the wall time of its top-level tests (one
// JSON line per file) for run-tests.js to print the slowest files of a pass (issue 44, item 7),
// and the run's counts of tests (one line, `{ summary }`) for the pass's total.
//
// In a process that several files share (COFFER_TEST_SHARED_PROCESS, scripts/test-batches.js)
// the reporter runs in that process and the files' tests one after another, so it also gives each
// file the CPU used since the previous file's last top-level test ended (`cpuMs`: this process's,
// and that of the child processes it waited for). The first file of a batch also carries the
// batch's start. Elsewhere each file's CPU comes from test-cpu-probe.js.
import { readFileSync } from 'node:fs';

export default async function* fileDurations(source) {
  const shared = process.env.COFFER_TEST_SHARED_PROCESS === '1';
  const durations = new Map();
  const cpu = new Map();
  let cpuMark = shared ? cpuMs() : 0;
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ?? '(unknown)';
      durations.set(file, (durations.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
      if (shared) {
        const now = cpuMs();
        cpu.set(file, (cpu.get(file) ?? 0) + now - cpuMark);
        cpuMark = now;
      }
    }
    if (event.type === 'test:summary' && event.data.file === undefined)
      yield `${JSON.stringify({ summary: event.data.counts })}\n`;
  }
  for (const [file, ms] of durations)
    yield `${JSON.stringify(shared ? { file, ms, cpuMs: cpu.get(file) } : { file, ms })}\n`;
}

/** This process's CPU and its waited-for children's (cutime + cstime of /proc/self/stat; Linux), in ms. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {}
  return (user + system) / 1000 + children;
}
