/**
 * Wall time of common `coffer` calls (issue 43 item 5), hyperfine-style: each command run 5
 * times, the median printed, with Node's compile cache off (cold: NODE_DISABLE_COMPILE_CACHE=1)
 * and on (warm: one unmeasured run fills it first).
 *
 *   node bench/cli-start/measure-cli-start.ts [<coffer command>...]
 *
 * e.g. `… bin/coffer.js` (the repository), `… <prefix>/bin/coffer` (installed from the packed
 * tarball) or `… npx coffer`. A throwaway data directory with one project and one user is made
 * first, so the admin commands read a real database; `files ls` answers "not logged in", which
 * loads what listing loads. The figures depend on the machine's load: the load average is printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

const launcher = process.argv.slice(2);
const [program, ...prefix] = launcher.length > 0 ? launcher : [process.execPath, 'bin/coffer.js'];
const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-cli-start-'));
const home = mkdtempSync(path.join(tmpdir(), 'coffer-cli-home-'));
const data = ['--data-dir', dataDir];
const calls: string[][] = [
  ['--help'],
  ['help', 'files'],
  ['files', 'ls'],
  ['files', 'upload', 'package.json'],
  ['project', 'list', ...data],
  ['user', 'list', '--project', 'default', ...data],
  ['audit', 'default', ...data],
];

/** Seconds one call took (its exit status is not the point: `files ls` is not logged in). */
function timeOnce(args: string[], cold: boolean): number {
  const env = { ...process.env, HOME: home, ...(cold ? { NODE_DISABLE_COMPILE_CACHE: '1' } : {}) };
  const started = performance.now();
  spawnSync(program!, [...prefix, ...args], { env, stdio: 'ignore' });
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

spawnSync(program!, [...prefix, 'migrate', ...data], { stdio: 'ignore' });
spawnSync(
  program!,
  [
    ...prefix,
    'user',
    'create',
    '--project',
    'default',
    '--email',
    'a@example.com',
    '--password',
    'correct horse battery staple',
    ...data,
  ],
  { stdio: 'ignore' },
);
console.log(
  `${launcher.join(' ') || 'node bin/coffer.js'}  (load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')})`,
);
console.log('command'.padEnd(40), 'cold s', 'warm s');
for (const args of calls) {
  const cold = median(Array.from({ length: 5 }, () => timeOnce(args, true)));
  timeOnce(args, false);
  const warm = median(Array.from({ length: 5 }, () => timeOnce(args, false)));
  console.log(
    args
      .filter((arg) => arg !== dataDir && arg !== '--data-dir')
      .join(' ')
      .padEnd(40),
    cold.toFixed(2).padStart(6),
    warm.toFixed(2).padStart(6),
  );
}
rmSync(dataDir, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
