import type { BenchReport } from './bench-report.ts';

/**
 * What the CI smoke run asserts: every scenario ran (or says why it is skipped), every load
 * got answers and only 2xx ones, and the memory check completed. Never a timing: CI machines
 * are too noisy for that, and the harness not rotting is the point.
 */
export function findSmokeFailures(report: BenchReport): string[] {
  const failures: string[] = [];
  for (const result of report.scenarios) {
    if (result.skipped) continue;
    if (result.error || !result.scenario || !result.baselines) {
      failures.push(`${result.id}: ${result.error ?? 'did not run'}`);
      continue;
    }
    for (const side of [result.scenario, ...result.baselines]) {
      side.rounds.forEach((measured, round) => {
        const where = `${result.id} / ${side.label} / round ${round + 1}`;
        if (measured.requests2xx === 0) failures.push(`${where}: no 2xx answer`);
        if (measured.non2xx > 0) failures.push(`${where}: ${measured.non2xx} non-2xx answers`);
        if (measured.errors > 0) failures.push(`${where}: ${measured.errors} errors or timeouts`);
      });
    }
  }
  const memory = report.memory;
  if (memory && (memory.error || !memory.upload || !memory.download || !memory.resumable))
    failures.push(`memory: ${memory.error ?? 'did not complete'}`);
  return failures;
}
