import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CofferProcess } from '../support/coffer-process.ts';
import type { Outcome } from '../support/http-load.ts';

/** Polls /readyz until it answers 200; answers when that was (performance.now()). */
export async function waitUntilReady(baseUrl: string, timeoutMs = 90_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${baseUrl}/readyz`);
    await response.arrayBuffer();
    if (response.status === 200) return performance.now();
    if (performance.now() > deadline) throw new Error(`/readyz still answers ${response.status}`);
    await sleep(100);
  }
}

/**
 * A store outage was clean: every request was answered (nothing crashed or reset a
 * connection), with 200 or 503 UNAVAILABLE only (never a 500), none hung, every request
 * started after readiness came back was served, and no server process died.
 */
export function assertCleanOutage(options: {
  outcomes: Outcome[];
  coffer: CofferProcess;
  /** How long a request may wait for the store before 503 (the store's busy timeout). */
  busyTimeoutMs: number;
  recoveredAt: number;
}): void {
  const { outcomes, coffer, busyTimeoutMs, recoveredAt } = options;
  const describe = (o: Outcome) => `${o.name}: ${o.status ?? o.error} ${o.code ?? ''}`.trim();
  assert.deepEqual(
    outcomes.filter((o) => o.status === undefined).map(describe),
    [],
    'every request got an answer',
  );
  assert.deepEqual(
    outcomes.filter((o) => o.status !== 200 && !(o.status === 503 && o.code === 'UNAVAILABLE')).map(describe),
    [],
    'only 200 and 503 UNAVAILABLE',
  );
  assert.deepEqual(
    outcomes.filter((o) => o.startedAt > recoveredAt && o.status !== 200).map(describe),
    [],
    'full service once /readyz is green again',
  );
  // A hang has no end; the margin only tells a hang from a slow answer on a busy machine.
  const slowest = Math.max(...outcomes.map((o) => o.endedAt - o.startedAt));
  assert.ok(slowest < busyTimeoutMs + 15_000, `a request took ${Math.round(slowest)} ms`);
  assert.doesNotMatch(coffer.output(), /exited \(/, 'no server process died');
}
