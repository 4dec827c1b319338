import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The event-loop delay of a server's processes over one run: the worst process's figures. */
export type EventLoopDelay = { p50Ms: number; p99Ms: number; maxMs: number };

type ProbeStats = EventLoopDelay & { pid: number; sequence: number; samples: number };

const probePath = path.join(import.meta.dirname, 'event-loop-delay-probe.ts');

/**
 * The bench side of event-loop-delay-probe.ts: what to add to a server's node flags and
 * environment, and `measure(run)`, which brackets a run with two SIGUSR2 rounds and answers
 * the delay every process of the server saw in between.
 */
export class EventLoopDelayProbe {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  get nodeArgs(): string[] {
    return ['--import', probePath];
  }

  get env(): Record<string, string> {
    return { COFFER_BENCH_EVENT_LOOP_DIR: this.dir };
  }

  async measure<T>(run: () => Promise<T>): Promise<{ result: T; eventLoopDelay: EventLoopDelay }> {
    await this.#collect();
    const result = await run();
    const stats = await this.#collect();
    const worst = (key: keyof EventLoopDelay) => Math.max(...stats.map((process) => process[key]));
    return {
      result,
      eventLoopDelay: { p50Ms: worst('p50Ms'), p99Ms: worst('p99Ms'), maxMs: worst('maxMs') },
    };
  }

  /** Signals every live probe and waits for each to write its interval. */
  async #collect(): Promise<ProbeStats[]> {
    const before = this.#read().filter((stats) => isAlive(stats.pid));
    for (const stats of before) process.kill(stats.pid, 'SIGUSR2');
    const asked = new Map(before.map((stats) => [stats.pid, stats.sequence]));
    const deadline = Date.now() + 5000;
    for (;;) {
      const written = this.#read().filter((stats) => stats.sequence > (asked.get(stats.pid) ?? Infinity));
      if (written.length === asked.size) return written;
      if (Date.now() > deadline) throw new Error(`event-loop probes in ${this.dir} did not answer`);
      await sleep(10);
    }
  }

  #read(): ProbeStats[] {
    return readdirSync(this.dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(path.join(this.dir, name), 'utf8')) as ProbeStats);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
