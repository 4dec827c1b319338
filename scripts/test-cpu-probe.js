// Loaded (--import) into each test file's process by run-tests.js: when the file's process
// exits, it appends the CPU the file cost to COFFER_TEST_CPU_LOG, its own (every thread) and
// that of the child processes it waited for (Coffer and CLI processes it ran), so that the
// slowest files of a pass come with their CPU seconds, a measure a busy machine does not bend
// the way it bends wall time (issue 44, item 7). Daemons still running at exit (a PostgreSQL
// cluster pg_ctl started) are not counted. A process that several files share
// (COFFER_TEST_SHARED_PROCESS) appends `{ files, cpuMs }`: the CPU of the batch, which its files
// used one after another (a share per file would be a guess).
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const log = process.env.COFFER_TEST_CPU_LOG;
const file = process.argv[1];
if (log && isMainThread && file?.endsWith('.test.ts')) {
  process.once('exit', () => {
    const { user, system } = process.cpuUsage();
    const cpuMs = (user + system) / 1000 + childrenMs();
    const line =
      process.env.COFFER_TEST_SHARED_PROCESS === '1'
        ? { files: process.argv.slice(1).map((each) => resolve(each)), cpuMs }
        : { file: resolve(file), cpuMs };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}

/** cutime + cstime of /proc/self/stat (Linux; 0 elsewhere), in clock ticks of 10 ms. */
function childrenMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
