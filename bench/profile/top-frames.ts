/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and answers where the time went: the top frames by
 * self time, aggregated by function + script, and the share of samples that had each area
 * (our src/ folders, each npm package, Node internals) anywhere on their stack.
 * CLI: `node bench/profile/top-frames.ts <file.cpuprofile> [top]`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };

/** A span of the monotonic clock in µs (`process.hrtime.bigint() / 1000n`, V8's profile clock on Linux). */
export type ProfileWindow = { fromUs: number; toUs: number };

export type TimeShare = { name: string; ms: number; percent: number };
export type ProfileSummary = {
  busyMs: number;
  idleMs: number;
  topSelf: TimeShare[];
  /** Self time summed per area: where the CPU actually ran. */
  selfAreas: TimeShare[];
  /** Samples with the area anywhere on the stack: what a layer costs, callees included. */
  stackAreas: TimeShare[];
  /** Samples with a frame of each given group anywhere on their stack (`groups` of summarizeProfile). */
  stackGroups: TimeShare[];
};

/** Frames named by their script (repository-relative, e.g. `src/domain/trash/x.ts`) and 1-based line. */
export type FrameGroup = { name: string; has: (file: string, line: number) => boolean };

const root = path.resolve(import.meta.dirname, '../..');
const meta = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** Only the samples within `window` when given (e.g. the load, without the server's start-up). */
export function summarizeProfile(
  profile: CpuProfile,
  top = 25,
  window?: ProfileWindow,
  groups: readonly FrameGroup[] = [],
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map<string, number>();
  const selfAreas = new Map<string, number>();
  const stackAreas = new Map<string, number>();
  const stackGroups = new Map<string, number>(groups.map((group) => [group.name, 0]));
  let busyMs = 0;
  let idleMs = 0;
  let atUs = profile.startTime;
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0;
    if (window && (atUs < window.fromUs || atUs > window.toUs)) return;
    // timeDeltas[i] is the time before sample i: the time sample i stood for is the next delta.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') {
      idleMs += ms;
      return;
    }
    busyMs += ms;
    const key = `${node.callFrame.functionName || '(anonymous)'}  ${toLocation(node)}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    const own = toArea(node) || '(native)';
    selfAreas.set(own, (selfAreas.get(own) ?? 0) + ms);
    const seen = new Set<string>();
    const seenGroups = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)!;
      seen.add(toArea(frame));
      const file = toScript(frame);
      for (const group of groups)
        if (file !== undefined && group.has(file, frame.callFrame.lineNumber + 1)) seenGroups.add(group.name);
    }
    for (const area of seen) stackAreas.set(area, (stackAreas.get(area) ?? 0) + ms);
    for (const group of seenGroups) stackGroups.set(group, (stackGroups.get(group) ?? 0) + ms);
  });
  const rank = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => ({ name, ms, percent: (100 * ms) / busyMs }));
  return {
    busyMs,
    idleMs,
    topSelf: rank(self).slice(0, top),
    selfAreas: rank(selfAreas),
    // Node's internals and Fastify sit under every request: as stack areas they say nothing.
    stackAreas: rank(stackAreas).filter(
      (a) => !['', 'node internals', 'npm fastify', 'npm avvio'].includes(a.name),
    ),
    stackGroups: rank(stackGroups),
  };
}

/** script:line, relative to the repository, or the meta name. */
function toLocation(node: ProfileNode): string {
  const file = toScript(node);
  if (file === undefined) return meta.has(node.callFrame.functionName) ? '' : '(native)';
  return `${file}:${node.callFrame.lineNumber + 1}`;
}

/** The frame's script, relative to the repository when it is a file (else its URL); undefined: none. */
function toScript(node: ProfileNode): string | undefined {
  const { url } = node.callFrame;
  if (!url) return undefined;
  return url.startsWith('file://') ? path.relative(root, new URL(url).pathname) : url;
}

/** src/<folder>, an npm package, node internals, or a meta frame; '' for frames that name no area. */
function toArea(node: ProfileNode): string {
  const { functionName } = node.callFrame;
  const file = toScript(node);
  if (file === undefined) return meta.has(functionName) && functionName !== '(root)' ? functionName : '';
  if (file.startsWith('node:')) return 'node internals';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inPackage) return `npm ${inPackage[1]}`;
  const inSrc = /^src\/((?:[^/]+\/)?[^/]+)\//.exec(file);
  if (inSrc) return `src/${inSrc[1]}`;
  return file.startsWith('src/') ? 'src' : 'other';
}

export function formatSummary(summary: ProfileSummary, areaCount = 20): string {
  const line = (share: TimeShare) =>
    `${share.percent.toFixed(1).padStart(5)}%  ${share.ms.toFixed(0).padStart(7)} ms  ${share.name}`;
  return [
    `busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms (percentages are of busy time)`,
    'top frames by self time:',
    ...summary.topSelf.map(line),
    'self time by area:',
    ...summary.selfAreas.slice(0, areaCount).map(line),
    'areas on the stack (inclusive, callees included; a sample counts once per area):',
    ...summary.stackAreas.slice(0, areaCount).map(line),
    ...(summary.stackGroups.length > 0
      ? [
          'groups on the stack (inclusive; 0 ms: no sample had a frame of it):',
          ...summary.stackGroups.map(line),
        ]
      : []),
  ].join('\n');
}

if (import.meta.main) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/profile/top-frames.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  console.log(formatSummary(summarizeProfile(profile, Number(top) || 25)));
}
