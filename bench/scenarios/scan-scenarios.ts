import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ClamdScanner } from '../../src/admission/clamd-scanner.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { clamdMissing, startClamd } from '../../test/support/clamd.ts';
import type { Measurement, Scenario, Side } from '../scenario.ts';
import { median } from '../scenario.ts';
import { fillBytes, requestUploadLinks, seedWorkload } from '../seed/workload.ts';
import { fromPool, loadSide } from './sides.ts';

const MiB = 1024 * 1024;
/** The largest body scanned: clamd's StreamMaxLength of the bench's daemon. */
const scanMaxBytes = 64 * MiB;

/**
 * Issue 42: a PUT through Coffer with scanning on (its bytes streamed to a private clamd as they
 * are stored), against the same PUT with scanning off. ClamAV's own time is counted apart: the
 * third side streams the same bytes straight to clamd over INSTREAM, no HTTP, no store.
 */
export const uploadScanned: Scenario = {
  id: 'upload-scanned',
  title: 'PUT signed upload, large file, malware scan on',
  unit: 'MiB/s',
  metric: 'rate',
  // Issue 42: scanning costs the PUT's rate at most 20 % (ClamAV's own time counted apart).
  target: 0.8,
  prepare: async (context) => {
    if (clamdMissing) return { skipped: clamdMissing };
    const clamd = await startClamd({ maxBytes: scanMaxBytes });
    context.onClose(() => clamd.close());
    const size = Math.min(context.options.largeBytes, scanMaxBytes);
    const body = fillBytes(size);
    const amount = context.options.largeRequests;
    const load = {
      connections: 1,
      amount,
      payloadBytes: size,
      request: { method: 'PUT' as const, headers: { 'content-type': 'application/octet-stream' }, body },
    };
    const scanning = await seedWorkload(
      await context.startCoffer('coffer-scan', {
        env: { COFFER_SCAN_URL: clamd.url, COFFER_SCAN_MAX_BYTES: String(scanMaxBytes) },
      }),
      'scan',
    );
    const plain = await context.workload();
    const putSide = (label: string, workload: typeof plain): Side => ({
      label,
      run: async () => {
        const links = await requestUploadLinks(workload, amount, `scan/${randomBytes(3).toString('hex')}`);
        const next = fromPool(links, (link) => ({ path: link.path }));
        return loadSide(label, { url: workload.server.url, nextRequest: next, ...load }).run();
      },
    });
    const scanner = new ClamdScanner({
      address: { path: clamd.socketPath },
      maxBytes: scanMaxBytes,
      concurrency: 1,
      timeoutMs: 60_000,
      clock: systemClock,
    });
    const clamdAlone: Side = {
      label: 'clamd alone',
      run: async () => {
        const latenciesMs: number[] = [];
        const started = performance.now();
        for (let i = 0; i < amount; i++) {
          const t0 = performance.now();
          // The same chunking a PUT's stream has (64 KiB reads).
          const chunks = Array.from({ length: Math.ceil(size / (64 * 1024)) }, (_, c) =>
            body.subarray(c * 64 * 1024, (c + 1) * 64 * 1024),
          );
          const verdict = await scanner.scan(Readable.from(chunks));
          if (verdict.result !== 'clean') throw new Error(`clamd answered ${verdict.result}`);
          latenciesMs.push(performance.now() - t0);
        }
        const durationSeconds = (performance.now() - started) / 1000;
        return toMeasurement(latenciesMs, durationSeconds, size);
      },
    };
    return {
      scenario: putSide('coffer, scan on', scanning),
      baselines: [putSide('coffer, scan off', plain), clamdAlone],
    };
  },
};

function toMeasurement(latenciesMs: number[], durationSeconds: number, size: number): Measurement {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    requests2xx: latenciesMs.length,
    non2xx: 0,
    errors: 0,
    durationSeconds,
    requestsPerSecond: latenciesMs.length / durationSeconds,
    mibPerSecond: (latenciesMs.length * size) / MiB / durationSeconds,
    latencyP50Ms: median(latenciesMs),
    latencyP99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN,
  };
}
