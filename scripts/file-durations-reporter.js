// A node:test reporter that writes, per test file, the wall time of its top-level tests (one
// JSON line per file) for run-tests.js to print the slowest files of a pass (issue 44, item 7),
// and the run's counts of tests (one line, `{ summary }`) for the pass's total.
export default async function* fileDurations(source) {
  const durations = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ?? '(unknown)';
      durations.set(file, (durations.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
    if (event.type === 'test:summary' && event.data.file === undefined)
      yield `${JSON.stringify({ summary: event.data.counts })}\n`;
  }
  for (const [file, ms] of durations) yield `${JSON.stringify({ file, ms })}\n`;
}
