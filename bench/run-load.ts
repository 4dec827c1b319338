import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LoadProcessResult, type LoadRequest, listLength, writeLoadSpec } from './load/load-spec.ts';
import { measureCpu } from './probes/process-cpu.ts';
import type { Measurement } from './scenario.ts';

export type { LoadRequest } from './load/load-spec.ts';

export type LoadOptions = {
  /** Base URL (origin); the path comes with the request. */
  url: string;
  request: LoadRequest;
  connections: number;
  /** Run for this long… */
  durationSeconds?: number;
  /** …or exactly this many requests (pools, large transfers). */
  amount?: number;
  /**
   * A fresh request for every call (unique filePaths, one-use links); overrides `request`'s
   * fields. Called before the run, to list its requests (bench/load/load-spec.ts): `amount`
   * times, or for a duration run as many times as `listLength` allows.
   */
  nextRequest?: () => LoadRequest;
  /** Payload bytes each 2xx answer moved, to report MiB/s. */
  payloadBytes?: number;
};

const loadProcess = path.join(import.meta.dirname, 'load', 'load-process.ts');

/**
 * Runs one load in a process of its own (bench/load/load-process.ts, autocannon) and measures
 * it, with the CPU it cost the server and that process (the load generator). Its requests are
 * listed and written before the timing, so the bench's own work stays out of both.
 */
export async function runLoad(options: LoadOptions): Promise<Measurement> {
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-load-'));
  try {
    const specFile = writeLoadSpec(dir, { ...options, next: options.nextRequest });
    const measured = await measureCpu(options.url, () =>
      runLoadProcess(loadProcess, specFile, options.payloadBytes),
    );
    if (measured.exhausted > 0) {
      console.warn(
        `  warning: the load's ${listLength(options)} listed requests ran out (${measured.exhausted} more asked for, sent as failures, and the run stopped)`,
      );
    }
    const { exhausted: _, loadGeneratorCpuSeconds: __, ...rest } = measured;
    return rest;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type ProcessMeasurement = Measurement & { exhausted: number; loadGeneratorCpuSeconds: number };

/**
 * Runs a load process (`script`: the load generator, or another client such as the plain S3
 * client of bench/load/s3-client-process.ts) on its spec and reads the LoadProcessResult it prints.
 */
export function runLoadProcess(
  script: string,
  specFile: string,
  payloadBytes?: number,
): Promise<ProcessMeasurement> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, specFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
    });
    child.stdout.on('error', reject);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`the load process ended with ${code ?? signal}`));
      try {
        resolve(toMeasurement(JSON.parse(output) as LoadProcessResult, payloadBytes));
      } catch (error) {
        reject(new Error(`the load process printed no result: ${output.slice(0, 200)}`, { cause: error }));
      }
    });
  });
}

function toMeasurement(result: LoadProcessResult, payloadBytes: number | undefined): ProcessMeasurement {
  const { requests2xx, busySeconds } = result;
  const seconds = Math.max(busySeconds, 1e-3);
  return {
    requests2xx,
    non2xx: result.non2xx,
    errors: result.errors,
    durationSeconds: busySeconds,
    requestsPerSecond: requests2xx / seconds,
    ...(payloadBytes ? { mibPerSecond: (requests2xx * payloadBytes) / seconds / 2 ** 20 } : {}),
    // JSON has no NaN: a run without an answer prints null.
    latencyP50Ms: result.latencyP50Ms ?? Number.NaN,
    latencyP99Ms: result.latencyP99Ms ?? Number.NaN,
    exhausted: result.exhausted,
    loadGeneratorCpuSeconds: result.cpuSeconds,
  };
}
