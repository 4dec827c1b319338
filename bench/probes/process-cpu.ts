/**
 * CPU time of process trees, read from /proc (Linux only): what the bench reports beside each
 * rate as the server's CPU per request (issue 26). A server is a tree (Coffer's primary and its
 * workers; PostgreSQL's postmaster and its backends; nginx's master and workers), so the time of
 * every descendant counts, threads included (libuv's pool renders images and hashes bytes), and
 * so does that of its children that have exited (issue 39: the media tools a render runs).
 */
import { readdir, readFile } from 'node:fs/promises';

/** USER_HZ: the unit of the times in /proc/<pid>/stat. */
const ticksPerSecond = 100;

type ProcessStat = { pid: number; parentPid: number; cpuSeconds: number };

/**
 * The fields of /proc/<pid>/stat after the command's parentheses (which may hold spaces), from
 * field 3 (state) on: field n is at index n - 3.
 */
async function readStatFields(pid: number | 'self'): Promise<string[] | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return undefined; // it exited meanwhile
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * One process's parent (field 4) and CPU seconds: its own utime + stime (fields 14, 15) and
 * cutime + cstime (16, 17), the time of its children it has waited for, theirs included. A
 * media tool lives for one render: it is gone before the reading after the load, and its time
 * is found in the parent's cutime (Node reaps every child it spawned).
 */
async function readStat(pid: number): Promise<ProcessStat | undefined> {
  const fields = await readStatFields(pid);
  if (!fields) return undefined;
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  return { pid, parentPid: Number(fields[1]), cpuSeconds: ticks / ticksPerSecond };
}

/** The CPU seconds so far of each live process in the trees under `roots`, by pid. */
export async function readTreeCpu(roots: readonly number[]): Promise<Map<number, number>> {
  if (roots.length === 0) return new Map();
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = (await Promise.all(pids.map(readStat))).filter((stat) => stat !== undefined);
  const childrenOf = new Map<number, ProcessStat[]>();
  for (const stat of stats) childrenOf.set(stat.parentPid, [...(childrenOf.get(stat.parentPid) ?? []), stat]);
  const byPid = new Map(stats.map((stat) => [stat.pid, stat]));
  const cpu = new Map<number, number>();
  const visit = (stat: ProcessStat | undefined) => {
    if (!stat || cpu.has(stat.pid)) return;
    cpu.set(stat.pid, stat.cpuSeconds);
    for (const child of childrenOf.get(stat.pid) ?? []) visit(child);
  };
  for (const root of roots) visit(byPid.get(root));
  return cpu;
}

/**
 * The CPU seconds the trees spent between two readings: the sum after less the sum before. A
 * process born in between counts from zero; one that exited in between took its time (all of
 * it, before the first reading too) into its parent's cutime, so what it had at the first
 * reading is subtracted. Only a process whose parent is outside the trees (an orphan re-parented
 * to init) is lost with its time, which the servers measured here never make.
 */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const seconds of after.values()) spent += seconds;
  for (const seconds of before.values()) spent -= seconds;
  return spent;
}

/**
 * Context switches so far of every thread of the processes, by `pid/tid` (voluntary: it waited,
 * for a socket or a lock; involuntary: the scheduler took its core). More switches per request
 * means less work done per wake-up: what spreading one load over more processes costs on few cores.
 */
export async function readSwitches(pids: Iterable<number>): Promise<Map<string, number>> {
  const switches = new Map<string, number>();
  await Promise.all(
    [...pids].map(async (pid) => {
      const threads = await readdir(`/proc/${pid}/task`).catch(() => []);
      await Promise.all(
        threads.map(async (tid) => {
          const status = await readFile(`/proc/${pid}/task/${tid}/status`, 'utf8').catch(() => '');
          let count = 0;
          for (const match of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm))
            count += Number(match[1]);
          switches.set(`${pid}/${tid}`, count);
        }),
      );
    }),
  );
  return switches;
}

/** The switches between two readings; a thread that ended in between is not counted (nor subtracted). */
function switchesSpent(before: Map<string, number>, after: Map<string, number>): number {
  let spent = 0;
  for (const [thread, count] of after) spent += count - (before.get(thread) ?? 0);
  return spent;
}

/** This process's own CPU seconds so far (every thread), for sides that run in the bench's process. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * The CPU seconds so far of the children this process has waited for (cutime + cstime of
 * /proc/self/stat: getrusage's RUSAGE_CHILDREN), for sides whose work is tools the bench runs
 * itself (a decoder alone, issue 39). A child counts once it has exited and been reaped, which
 * Node does before it emits the child's `exit`.
 */
export async function childrenCpuSeconds(): Promise<number> {
  const fields = await readStatFields('self');
  if (!fields) throw new Error('/proc/self/stat is unreadable (the CPU probes need Linux)');
  return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
}

/** The root pids of each server the bench started, by origin (BenchContext registers them). */
const serverRoots = new Map<string, () => Promise<number[]>>();

export function registerServer(url: string, roots: () => Promise<number[]>): void {
  serverRoots.set(new URL(url).origin, roots);
}

/**
 * Runs `work` (a timed load) and measures the CPU it cost: that of the server at `origin` (its
 * registered process trees) and the load generator's: the CPU the load process reported
 * (`loadGeneratorCpuSeconds`, bench/run-load.ts), else the bench's own, for sides that drive
 * the server from this process (tus clients, renders); without an origin the work runs in this
 * process, whose CPU is then the server's. Per answered request, in µs.
 */
export async function measureCpu<
  T extends { requests2xx: number; non2xx: number; loadGeneratorCpuSeconds?: number },
>(
  origin: string | undefined,
  work: () => Promise<T>,
): Promise<
  T & { cpuUsPerRequest: { server?: number; loadGenerator?: number }; serverSwitchesPerRequest?: number }
> {
  const roots = origin === undefined ? undefined : serverRoots.get(new URL(origin).origin);
  const rootPids = roots ? await roots() : [];
  const serverBefore = await readTreeCpu(rootPids);
  const switchesBefore = await readSwitches(serverBefore.keys());
  const ownBefore = ownCpuSeconds();
  const measured = await work();
  const ownSpent = measured.loadGeneratorCpuSeconds ?? ownCpuSeconds() - ownBefore;
  const serverAfter = await readTreeCpu(rootPids);
  const serverSpent = cpuSpent(serverBefore, serverAfter);
  const switches = switchesSpent(switchesBefore, await readSwitches(serverAfter.keys()));
  const requests = Math.max(1, measured.requests2xx + measured.non2xx);
  const perRequest = (seconds: number) => (seconds * 1e6) / requests;
  if (origin === undefined) return { ...measured, cpuUsPerRequest: { server: perRequest(ownSpent) } };
  return {
    ...measured,
    cpuUsPerRequest: {
      // A server the bench did not start (the S3 test server) is not measured.
      ...(roots && { server: perRequest(serverSpent) }),
      loadGenerator: perRequest(ownSpent),
    },
    ...(roots && { serverSwitchesPerRequest: switches / requests }),
  };
}

/**
 * Runs `work` (tools the bench runs itself, one per request) and measures the CPU of the
 * children it waited for meanwhile, as the side's server CPU per answered request, in µs.
 * Nothing else the bench started may exit during it (its servers run for the whole run).
 */
export async function measureChildrenCpu<T extends { requests2xx: number; non2xx: number }>(
  work: () => Promise<T>,
): Promise<T & { cpuUsPerRequest: { server: number } }> {
  const before = await childrenCpuSeconds();
  const measured = await work();
  const spent = (await childrenCpuSeconds()) - before;
  const requests = Math.max(1, measured.requests2xx + measured.non2xx);
  return { ...measured, cpuUsPerRequest: { server: (spent * 1e6) / requests } };
}
