import { parseArgs } from 'node:util';

const MiB = 1024 * 1024;

/** Everything a run is parameterized by; the smoke run is the same harness at toy sizes. */
export type BenchOptions = {
  smoke: boolean;
  /** Scenario ids to run (all when empty). */
  only: string[];
  /** `sqlite-fs` (embedded defaults) or `pg-s3` (PostgreSQL + S3, when PostgreSQL is installed). */
  stack: 'sqlite-fs' | 'pg-s3';
  rounds: number;
  /** Seconds per load run of request-rate scenarios. */
  durationSeconds: number;
  connections: number;
  /** Size of the "large" download and upload scenarios. */
  largeBytes: number;
  /** Requests per round of the large scenarios (each one moves largeBytes). */
  largeRequests: number;
  /** Requests per round of scenarios that consume a prepared pool (verify). */
  poolRequests: number;
  /** File records of the "many records" hot-path scenario. */
  manyRecords: number;
  /** File records the listing scenario's reader owns. */
  listRecords: number;
  /** Size of the transfers whose server RSS is sampled. */
  memoryBytes: number;
  /** Whether to rewrite docs/benchmarks.md and its chart (full runs of every scenario only). */
  writeDocs: boolean;
  /**
   * Whether to merge this run's rows into bench/recorded/<stack>.json (previous-run.ts): a full
   * run with docs, every pg-s3 run (its rows are measured a few at a time), or `--record`; never
   * a smoke run, nor with `--no-record`.
   */
  record: boolean;
};

const usage = `Usage: npm run bench [-- options]   (npm run bench:smoke = --smoke)
  --only a,b        run only these scenario ids (see the table in bench/scenarios.ts; "memory" for RSS)
  --smoke           every scenario for about a second, small sizes, one round; fails on any non-2xx
  --rounds N        alternated scenario/baseline rounds (default 5)
  --duration S      seconds per request-rate run (default 5)
  --connections N   concurrent connections for request-rate runs (default 10)
  --stack NAME      sqlite-fs (default) or pg-s3 (a private PostgreSQL cluster and S3 server, as the tests start)
  --no-docs         do not rewrite docs/benchmarks.md even on a full run
  --record          merge the rows this run measured into bench/recorded/<stack>.json (the
                    default of full runs with docs and of every --stack pg-s3 run)
  --no-record       leave bench/recorded/<stack>.json as it is`;

export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      smoke: { type: 'boolean' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      stack: { type: 'string' },
      'no-docs': { type: 'boolean' },
      record: { type: 'boolean' },
      'no-record': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const smoke = values.smoke ?? false;
  const stack = values.stack ?? 'sqlite-fs';
  if (stack !== 'sqlite-fs' && stack !== 'pg-s3') throw new Error(`unknown --stack ${stack}\n${usage}`);
  const only = (values.only ?? '').split(',').filter(Boolean);
  const writeDocs = !smoke && only.length === 0 && stack === 'sqlite-fs' && !values['no-docs'];
  return {
    smoke,
    only,
    stack,
    rounds: toPositive(values.rounds, smoke ? 1 : 5),
    // PostgreSQL's first statements (plans, pool connections) can outlast a 1 s smoke run on a busy machine.
    durationSeconds: toPositive(values.duration, smoke ? (stack === 'pg-s3' ? 2 : 1) : 5),
    connections: toPositive(values.connections, 10),
    largeBytes: smoke ? 4 * MiB : 256 * MiB,
    largeRequests: smoke ? 2 : 3,
    poolRequests: smoke ? 100 : 1500,
    manyRecords: smoke ? 10_000 : 1_000_000,
    listRecords: smoke ? 1000 : 10_000,
    memoryBytes: smoke ? 32 * MiB : 1024 * MiB,
    // The "Latest figures" block is the embedded stack's; pg-s3 figures go in their own section by hand.
    writeDocs,
    record: !smoke && !values['no-record'] && (writeDocs || stack === 'pg-s3' || (values.record ?? false)),
  };
}

function toPositive(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`expected a positive number, got ${text}\n${usage}`);
  return value;
}
