// Runs every test on node:test, on both stacks:
//   1. every test file (unit tests beside the code, cross-module tests in test/) on the embedded
//      stack; the contract suites start their own PostgreSQL and S3 servers;
//   2. the API, access, CLI, end-to-end, crash, concurrency, fuzz and some fault suites again on
//      PostgreSQL + S3 (one private PostgreSQL cluster and one S3 server for the run, a fresh
//      database and key prefix per Coffer server). Without PostgreSQL installed this pass is
//      skipped, loudly; installed but unable to start, the pass fails with one line saying why.
//      The S3 is a real one, a private Ceph RADOS Gateway, when Ceph is installed (as .ci/run
//      does); else s3rver, loudly: it and our SigV4 checker could share our misreadings of S3.
// Test files given as arguments narrow both passes to them (the second pass only to those of
// its list); other arguments go to node --test (e.g. --test-name-pattern=…).
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  globSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planUnits } from './test-batches.js';

// --test-timeout is a hang guard, not a speed check: sized for a machine running other test
// suites beside this one (a whole pass then takes several times as long as alone).
// The pass's files run as units of one process each, two at a time: most files share a process
// with a few others, the rest have one of their own (scripts/test-batches.js). Each unit's report
// is printed whole when it ends, so that two units' reports do not interleave; the pass ends with
// its counts, the units that failed, and its ten slowest files.
const nodeTest = async (files, pass, env = process.env, output = undefined) => {
  if (files.length === 0) return 0;
  const timesDir = mkdtempSync(join(tmpdir(), 'coffer-test-times-'));
  const cpuLog = join(timesDir, 'cpu.jsonl');
  const ownReporters = !testFlags.some((flag) => flag.startsWith('--test-reporter'));
  // A pass run beside another writes to its own file (`output`), printed when it ends.
  const print = (text) =>
    output === undefined ? process.stdout.write(text) : writeFileSync(output, text, { flag: 'a' });
  const units = planUnits(files);
  const failedUnits = [];
  let next = 0;
  const runUnits = async () => {
    while (next < units.length) {
      const index = next++;
      const unit = units[index];
      const report = join(timesDir, `unit-${index}.txt`);
      const timings = join(timesDir, `times-${index}.jsonl`);
      const reporters = ownReporters
        ? [
            '--test-reporter=spec',
            '--test-reporter-destination=stdout',
            `--test-reporter=${fileURLToPath(new URL('./file-durations-reporter.js', import.meta.url))}`,
            `--test-reporter-destination=${timings}`,
          ]
        : [];
      const sink = openSync(report, 'w');
      const child = spawn(
        process.execPath,
        [
          '--test',
          ...(unit.shared ? ['--test-isolation=none'] : []),
          '--test-force-exit',
          '--test-timeout=600000',
          `--import=${new URL('./test-cpu-probe.js', import.meta.url).href}`,
          ...reporters,
          ...testFlags,
          ...unit.files,
        ],
        {
          stdio: ['ignore', sink, sink],
          env: { ...env, COFFER_TEST_CPU_LOG: cpuLog, COFFER_TEST_SHARED_PROCESS: unit.shared ? '1' : '0' },
        },
      );
      const status = await new Promise((resolve) => {
        child.on('error', () => resolve(1));
        child.on('close', (code) => resolve(code ?? 1));
      });
      closeSync(sink);
      if (status !== 0) failedUnits.push(unit.files);
      print(readFileSync(report));
      rmSync(report, { force: true });
    }
  };
  await Promise.all([runUnits(), runUnits()]);
  const timings = units.flatMap((_, index) => readJsonLines(join(timesDir, `times-${index}.jsonl`)));
  const cpu = readCpu(cpuLog);
  print(passSummary(pass, timings, failedUnits) + slowestFiles(timings, cpu));
  if (process.env.COFFER_TEST_TIMES_FILE)
    keepFileTimes(timings, cpu, pass, process.env.COFFER_TEST_TIMES_FILE);
  rmSync(timesDir, { recursive: true, force: true });
  return failedUnits.length > 0 ? 1 : 0;
};

/** The pass's counts of tests, summed over its units, and the files of each unit that failed. */
function passSummary(pass, timings, failedUnits) {
  const counts = {};
  for (const { summary } of timings.filter((line) => line.summary))
    for (const [name, count] of Object.entries(summary)) counts[name] = (counts[name] ?? 0) + count;
  const shown = ['tests', 'passed', 'failed', 'cancelled', 'skipped', 'todo'];
  const lines = [
    `\n=== pass ${pass}: ${shown.map((name) => `${name} ${counts[name] ?? 0}`).join(', ')} ===\n`,
  ];
  for (const files of failedUnits) lines.push(`FAILED: the process of ${files.map(shownName).join(', ')}\n`);
  return lines.join('');
}

/**
 * The ten test files that took longest in the pass (their top-level tests' wall time), as text,
 * each with the CPU seconds its process tree used (test-cpu-probe.js) when it had a process of
 * its own; then the five shared processes that used the most CPU, and the pass's total CPU.
 */
function slowestFiles(timings, { ownCpu, shared, totalMs }) {
  const rows = timings
    .filter((line) => line.file)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  if (rows.length === 0) return '';
  const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
  const lines = rows.map(
    ({ file, ms }) =>
      `  ${seconds(ms)} ${ownCpu.has(file) ? seconds(ownCpu.get(file)) : ' (shared)'} CPU  ${shownName(file)}`,
  );
  const batches = shared
    .sort((a, b) => b.cpuMs - a.cpuMs)
    .slice(0, 5)
    .map(({ files, cpuMs }) => `  ${seconds(cpuMs)} CPU  ${files.map(shownName).join(', ')}`);
  const fileCount = new Set(timings.map((line) => line.file).filter(Boolean)).size;
  return (
    `\nslowest test files of this pass (wall time, then CPU):\n${lines.join('\n')}\n` +
    (batches.length ? `shared processes that used the most CPU:\n${batches.join('\n')}\n` : '') +
    `CPU of the pass's ${fileCount} test files: ${(totalMs / 1000).toFixed(0)} s\n`
  );
}

/**
 * Every file's wall time, and its CPU seconds when it had a process of its own, one JSON line
 * each; then one line per shared process with its files and CPU; appended to `destination`
 * (COFFER_TEST_TIMES_FILE): what to look at when the suite outgrows its budget.
 */
function keepFileTimes(timings, { ownCpu, shared }, pass, destination) {
  const lines = [
    ...timings
      .filter((line) => line.file)
      .map(({ file, ms }) =>
        JSON.stringify({ pass, file: shownName(file), ms, cpuMs: ownCpu.get(file) ?? null }),
      ),
    ...shared.map(({ files, cpuMs }) => JSON.stringify({ pass, files: files.map(shownName), cpuMs })),
  ];
  if (lines.length > 0) writeFileSync(destination, `${lines.join('\n')}\n`, { flag: 'a' });
}

/**
 * The CPU milliseconds of the pass's processes (test-cpu-probe.js): per file with a process of
 * its own (a process may fork one running the same file, a cluster worker: the file's own, which
 * waited for it, used the most), per shared process, and in all.
 */
function readCpu(cpuLog) {
  const ownCpu = new Map();
  const shared = [];
  for (const { file, files, cpuMs } of readJsonLines(cpuLog)) {
    if (file) ownCpu.set(file, Math.max(ownCpu.get(file) ?? 0, cpuMs));
    else shared.push({ files, cpuMs });
  }
  const totalMs = [...ownCpu.values(), ...shared.map(({ cpuMs }) => cpuMs)].reduce((sum, ms) => sum + ms, 0);
  return { ownCpu, shared, totalMs };
}

/** A test file's path as reports show it: relative to where the run started. */
function shownName(file) {
  return relative(process.cwd(), file);
}

function readJsonLines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

// Every test file is a process of its own that strips the types of, and compiles, the same few
// hundred modules; so is every Coffer or CLI process a test starts (and every worker thread).
// Node's compile cache keeps both between processes (an entry is used only while its source is
// unchanged): about 0.7 s of CPU less per process that starts a server (issue 44, item 7).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'coffer-node-compile-cache');
// Test servers' compiled request validators and response serializers, kept as code for the run
// (test/support/shared-schema-compilers.ts): about 0.6 s of CPU less per test process.
if (!process.env.COFFER_TEST_SCHEMA_CACHE) {
  const schemaCache = mkdtempSync(join(tmpdir(), 'coffer-test-schemas-'));
  process.env.COFFER_TEST_SCHEMA_CACHE = schemaCache;
  process.once('exit', () => rmSync(schemaCache, { recursive: true, force: true }));
}

// Every `coffer` command and server a test starts runs from one bundle of src/ built for the run
// (scripts/build-bundle.ts): from src/ each would resolve and load ~540 modules for a command and
// ~1,400 for a server, about 1 ms of CPU each, in a few thousand processes. In-process servers
// and the tests of bin/coffer.js itself still run src/ as it is. Built under node_modules/.cache
// so that the packages it leaves out resolve from the bundle as from src/.
if (!process.env.COFFER_TEST_BIN) {
  const { buildBundle } = await import('./build-bundle.ts');
  const cacheDir = join(import.meta.dirname, '..', 'node_modules', '.cache');
  mkdirSync(cacheDir, { recursive: true });
  const bundleDir = mkdtempSync(join(cacheDir, 'coffer-test-bundle-'));
  process.once('exit', () => rmSync(bundleDir, { recursive: true, force: true }));
  process.env.COFFER_TEST_BIN = await buildBundle(bundleDir);
}

const args = process.argv.slice(2);
const testFlags = args.filter((arg) => !arg.endsWith('.test.ts'));
const chosenFiles = args.filter((arg) => arg.endsWith('.test.ts'));
const narrow = (files) => (chosenFiles.length ? files.filter((file) => chosenFiles.includes(file)) : files);

const allFiles = narrow([...globSync('src/**/*.test.ts'), ...globSync('test/**/*.test.ts')].sort());
// Files under the folders above that use no server, database or store of the pass: the same
// in both, they run in the embedded pass only.
const stackIndependent = [
  'test/cli/cli-version.test.ts',
  'test/cli/command-loading.test.ts',
  'test/cli/npm-start.test.ts',
  'test/cli/old-node.test.ts',
  'test/cli/progress.test.ts',
  'test/media/media-decoder.test.ts',
  'test/media/tool-runner.test.ts',
];
const stackFiles = narrow(
  [
    ...globSync('test/e2e/*.test.ts'),
    ...globSync('test/access/*.test.ts'),
    ...globSync('test/cli/*.test.ts'),
    ...globSync('test/console/*.test.ts'),
    ...globSync('test/stacks/*.test.ts'),
    ...globSync('test/hostile/*.test.ts'),
    ...globSync('test/resumable/*.test.ts'),
    ...globSync('test/renditions/*.test.ts'),
    ...globSync('test/events/*.test.ts'),
    ...globSync('test/mail/*.test.ts'),
    ...globSync('test/accounts/*.test.ts'),
    ...globSync('test/folders/*.test.ts'),
    ...globSync('test/sign-in/*.test.ts'),
    ...globSync('test/versions/*.test.ts'),
    ...globSync('test/trash/*.test.ts'),
    ...globSync('test/media/*.test.ts'),
    ...globSync('test/search/*.test.ts'),
    ...globSync('test/account-controls/*.test.ts'),
    ...globSync('test/admission/*.test.ts'),
    // A rolling upgrade is PostgreSQL's case above all (the image test is not here: one step of its own).
    'test/ship/mixed-version.test.ts',
    // Uppy's @uppy/aws-s3 sends the bytes to S3 itself: there is no S3 on the embedded stack.
    'test/client/uppy-s3-browser.test.ts',
    'test/archives/archives-api.test.ts',
    'test/archives/archive-refusals.test.ts',
    'test/contract/folder-counts.test.ts',
    'test/fuzz/acl-model.property.test.ts',
    'test/fuzz/http-mutation.test.ts',
    'test/fuzz/raw-socket.test.ts',
    ...globSync('test/crash/*.test.ts'),
    ...globSync('test/concurrency/*.test.ts'),
    'test/api/error-scenarios.test.ts',
    'test/api/tokens-and-accounts.test.ts',
    'test/api/sessions.test.ts',
    'test/api/session-end.test.ts',
    'test/api/session-reuse.test.ts',
    'test/api/http-conformance.test.ts',
    'test/api/metrics.test.ts',
    'test/client/client.test.ts',
    'test/client/client-resumable.test.ts',
    'test/client/client-renditions.test.ts',
    'test/client/client-media.test.ts',
    'test/client/client-events.test.ts',
    'test/client/client-operations.test.ts',
    'test/client/client-folders.test.ts',
    'test/client/client-versions.test.ts',
    'test/client/client-trash.test.ts',
    'test/client/client-find.test.ts',
    'test/client/client-sign-in.test.ts',
    'test/docs/openapi-generated-client.test.ts',
    'test/docs/openapi-security.test.ts',
    'test/api/anonymous-signup.test.ts',
    'test/api/find-users.test.ts',
    'test/api/key-rotation.test.ts',
    'test/api/rate-limits.test.ts',
    'test/api/trust-proxy.test.ts',
    'test/api/concurrency.test.ts',
    'test/api/malformed-uploads.test.ts',
    'test/api/custom-data.test.ts',
    'test/api/link-revocation.test.ts',
    'test/api/unverified-sweep.test.ts',
    'test/api/copy-move-delete.test.ts',
    'test/fuzz/http-findings.test.ts',
    'test/api/upload-contracts.test.ts',
    'test/api/quotas.test.ts',
    'test/api/content-types.test.ts',
    'test/api/readiness-probes.test.ts',
    'test/api/get-file-answer.test.ts',
    // The other fault tests stop a PostgreSQL cluster of their own: one pass is enough.
    'test/faults/s3-outage.test.ts',
    'test/faults/worker-crash.test.ts',
    // What a test server's start reuses (serializers, a migrated database) on each stack.
    'test/support/test-servers.test.ts',
  ]
    .filter((file) => !stackIndependent.includes(file))
    .sort(),
);

// COFFER_TEST_STACKS=pg-s3 (or embedded) runs one pass only, for quicker iterations.
// The two passes run at once (they share no port, cluster or folder: each test starts its
// servers on free ports in folders of its own), the PostgreSQL + S3 pass's report printed after
// it ends: the kill -9 and two-node suites wait more than they compute, and the other pass fills
// those waits (41 -> 35 minutes on two cores, docs/benchmarks.md).
// COFFER_TEST_PASSES_SIDE_BY_SIDE=0 runs them one after the other.
const passes = (process.env.COFFER_TEST_STACKS ?? 'embedded,pg-s3').split(',');
// Test files may ask which passes the run makes (test/support/test-stack.ts, runsPass).
process.env.COFFER_TEST_PASSES = passes.join(',');
const sideBySide = process.env.COFFER_TEST_PASSES_SIDE_BY_SIDE !== '0' && passes.length > 1;
const embeddedPass = async () => {
  if (!passes.includes('embedded')) return false;
  console.log(`\n=== stack: embedded (SQLite + local disk): ${allFiles.length} files ===\n`);
  // Test servers' SQLite databases are copies of one the run migrates once (about 0.5 s of CPU
  // per test process when each migrated its own): test/support/migrated-databases.ts.
  const { migratedSqliteFile } = await import('../test/support/migrated-databases.ts');
  const sqliteTemplate = await migratedSqliteFile();
  return (
    (await nodeTest(allFiles, 'embedded', {
      ...process.env,
      COFFER_TEST_SQLITE_TEMPLATE: sqliteTemplate,
    })) !== 0
  );
};
const pgS3Pass = async (output) => (passes.includes('pg-s3') ? runPgS3Pass(output) : false);
let failed;
if (sideBySide) {
  const outputDir = mkdtempSync(join(tmpdir(), 'coffer-pg-s3-pass-'));
  const report = join(outputDir, 'report.txt');
  const results = await Promise.all([embeddedPass(), pgS3Pass(report)]);
  if (existsSync(report)) {
    console.log('\n=== the report of the pg-s3 pass, run beside the embedded one ===\n');
    process.stdout.write(readFileSync(report));
  }
  rmSync(outputDir, { recursive: true, force: true });
  failed = results.some(Boolean);
} else {
  const embeddedFailed = await embeddedPass();
  failed = (await pgS3Pass()) || embeddedFailed;
}
// Reports go to stdout in writes a slow reader (a CI log, a pipe) may not have taken yet: exit
// once they are out, or the end of the last report is lost (it was, in a CI log).
process.stdout.write('', () => process.exit(failed ? 1 : 0));

/**
 * The second pass, on one PostgreSQL cluster and one S3 server; answers whether it failed. A
 * server that cannot start fails the pass with one line saying why (its error's message names
 * the cause), and the embedded pass's result still stands.
 */
async function runPgS3Pass(output) {
  if (stackFiles.length === 0) return false; // none of the files asked for runs on this stack
  const { startPostgres } = await import('../test/support/postgres-server.ts');
  const { startS3Server } = await import('../test/support/s3-server.ts');
  const { startRgw } = await import('../test/support/rgw-server.ts');
  let postgres;
  try {
    postgres = await startPostgres();
  } catch (error) {
    return passFailed(firstLine(error));
  }
  if (!postgres) {
    console.error(
      '\n!!! SKIPPED: the PostgreSQL + S3 pass (%d files) — PostgreSQL is not installed.\n' +
        '!!! Install it with `apt-get install -y postgresql` (as .ci/run does) to run them.\n',
      stackFiles.length,
    );
    return false;
  }
  let s3;
  let s3Name = 'Ceph RGW';
  try {
    s3 = await startRgw();
    if (!s3) {
      s3Name = 's3rver';
      console.error(
        '\n!!! The PostgreSQL + S3 pass runs on s3rver, not on a real S3: Ceph is not installed.\n' +
          '!!! Install `ceph-mon ceph-osd radosgw` (as .ci/run does) to run it on Ceph RGW.\n',
      );
      s3 = await startS3Server();
    }
  } catch (error) {
    await postgres.stop();
    return passFailed(`the S3 server (${s3Name}) could not start: ${firstLine(error)}`);
  }
  try {
    console.log(`\n=== stack: pg-s3 (PostgreSQL + S3 on ${s3Name}): ${stackFiles.length} files ===\n`);
    // Test servers' databases are clones of one the pass migrates once (CREATE DATABASE …
    // TEMPLATE), not migrated each (test/support/migrated-databases.ts); no session stays on it.
    const { migrateInto } = await import('../test/support/migrated-databases.ts');
    const templateUrl = await postgres.createDatabase();
    await migrateInto(templateUrl);
    const env = {
      ...process.env,
      COFFER_TEST_POSTGRES_URL: postgres.url,
      COFFER_TEST_POSTGRES_TEMPLATE: new URL(templateUrl).pathname.slice(1),
      COFFER_TEST_STORAGE_URL: s3.storageUrl,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: 'us-east-1',
    };
    return (await nodeTest(stackFiles, 'pg-s3', env, output)) !== 0;
  } finally {
    await s3.stop();
    await postgres.stop();
  }
}

function passFailed(reason) {
  console.error(`\n!!! FAILED: the PostgreSQL + S3 pass (${stackFiles.length} files) — ${reason}\n`);
  return true;
}

/** An error's first line: the reason, without a stack trace or a command's whole output. */
function firstLine(error) {
  return String(error instanceof Error ? error.message || error : error).split('\n')[0];
}
