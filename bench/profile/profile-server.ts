/**
 * Profiles the Coffer server under one scenario's load: `coffer serve` runs with node's
 * --cpu-prof, which its worker processes inherit (cluster.fork passes the primary's execArgv
 * on), the scenario's own side runs for a while, the server stops (every process writing its
 * profile), and the top frames of the busiest worker during the load are printed (not the
 * primary's, which only hands connections over, nor the start-up's). The .cpuprofile files
 * stay in bench/results/profiles/ (gitignored) for Chrome DevTools or speedscope.
 *   node bench/profile/profile-server.ts [scenario ids…] [--duration S] [--stack pg-s3] [--smoke] [--baseline]
 *   (default: get-file request-upload, 15 s, the embedded stack; --smoke: the smoke run's world,
 *   e.g. 10,000 records rather than 1,000,000, for a cost that does not grow with the project;
 *   --baseline: the scenario's first baseline side rather than its own, when that is a Coffer)
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BenchContext } from '../bench-context.ts';
import { parseBenchOptions } from '../bench-options.ts';
import { scenarios } from '../scenarios.ts';
import { capabilityGroups } from './capability-frames.ts';
import { formatSummary, type ProfileWindow, summarizeProfile } from './top-frames.ts';

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: {
    duration: { type: 'string' },
    stack: { type: 'string' },
    smoke: { type: 'boolean' },
    baseline: { type: 'boolean' },
  },
  allowPositionals: true,
});
const ids = positionals.length > 0 ? positionals : ['get-file', 'request-upload'];
const options = parseBenchOptions([
  ...['--duration', values.duration ?? '15', '--no-docs'],
  ...(values.stack ? ['--stack', values.stack] : []),
  ...(values.smoke ? ['--smoke'] : []),
]);

for (const id of ids) {
  const scenario = scenarios.find((candidate) => candidate.id === id);
  if (!scenario) throw new Error(`unknown scenario ${id}`);
  const dir = path.resolve(import.meta.dirname, '../results/profiles', `${id}-${Date.now()}`);
  const context = new BenchContext(options, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  let window: ProfileWindow | undefined;
  let workerPids: number[] = [];
  try {
    const prepared = await scenario.prepare(context);
    if ('skipped' in prepared) {
      console.log(`${id}: skipped: ${prepared.skipped}`);
      continue;
    }
    const from = process.hrtime.bigint();
    // --baseline: the first baseline's side instead (a Coffer one, e.g. the ACL side of the
    // folder-shares row), to set its profile beside the scenario's.
    const side = values.baseline ? prepared.baselines[0] : prepared.scenario;
    if (!side) throw new Error(`${id} has no baseline`);
    const measured = await side.run();
    window = { fromUs: Number(from / 1000n), toUs: Number(process.hrtime.bigint() / 1000n) };
    workerPids = context.coffers.map((server) => server.workerPid);
    console.log(
      `\n▶ ${id} (${side.label}): ${measured.requestsPerSecond.toFixed(0)} req/s under the profiler (it costs some)`,
    );
  } finally {
    await context.close(); // SIGTERM: the server drains and exits, and node writes the profile
  }
  if (!window) continue;
  // Every Coffer process of the scenario wrote one (CPU.<date>.<time>.<pid>.…): of the
  // workers' (a scenario may start several servers), the largest saw the load.
  const files = (await readdir(dir)).filter((name) => workerPids.includes(Number(name.split('.')[3])));
  const sized = await Promise.all(
    files.map(async (name) => ({ name, bytes: (await readFile(path.join(dir, name))).length })),
  );
  const busiest = sized.sort((a, b) => b.bytes - a.bytes)[0];
  if (!busiest) throw new Error(`no profile written in ${dir}`);
  const file = path.join(dir, busiest.name);
  console.log(`profile: ${path.relative(process.cwd(), file)}`);
  // Issue 44 item 6: what each capability's code costs the request, when it costs anything.
  const profile = JSON.parse(await readFile(file, 'utf8'));
  console.log(formatSummary(summarizeProfile(profile, 25, window, capabilityGroups)));
}
