import { Gauge, type Registry } from 'prom-client';

/** A project's usage as the storage_usage table keeps it (its total row). */
export type ProjectStorage = { projectId: string; name: string; files: number; bytes: number };

export type ProjectStorageGaugeOptions = {
  /** Every project's usage: one primary-key read per project, never a read of their users. */
  measure: () => Promise<ProjectStorage[]>;
  /** How many projects get series of their own: the largest by bytes (ties by id). */
  maxProjects: number;
  /** A reading is reused for this long, however often scrapes come. */
  refreshSeconds: number;
  /** Milliseconds of a monotonic clock. */
  now?: () => number;
};

/**
 * Stored bytes and files per project (issue 24), read from the database at scrape time.
 * Bounded both ways, as a deployment may hold many projects:
 * - series: the `maxProjects` largest projects by bytes each get a labelled series; the
 *   deployment's totals are unlabelled gauges, so what the rest hold is total − sum;
 * - work: at most one read of the projects' usage per `refreshSeconds` per process, however
 *   often and from however many scrapers it is asked (concurrent scrapes share one read).
 * The numbers are the whole deployment's, so every worker reports the same (`max`, not a sum).
 * A database that does not answer leaves them as they were.
 */
export function registerProjectStorageGauges(registry: Registry, options: ProjectStorageGaugeOptions): void {
  const now = options.now ?? (() => performance.now());
  let reading: Promise<ProjectStorage[] | undefined> | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  const read = () => {
    if (reading === undefined || now() - readAt >= options.refreshSeconds * 1000) {
      readAt = now();
      reading = options.measure().catch(() => undefined);
    }
    return reading;
  };
  const perProject = (field: 'bytes' | 'files') =>
    async function collect(this: Gauge<'project' | 'name'>) {
      const projects = await read();
      if (!projects) return;
      this.reset();
      for (const project of toLargest(projects, options.maxProjects))
        this.set({ project: project.projectId, name: project.name }, project[field]);
    };
  const total = (field: 'bytes' | 'files') =>
    async function collect(this: Gauge) {
      const projects = await read();
      if (projects) this.set(projects.reduce((sum, project) => sum + project[field], 0));
    };
  const common = { aggregator: 'max' as const, registers: [registry] };
  new Gauge({
    name: 'coffer_project_stored_bytes',
    help: `Bytes stored by a project (files and pending uploads), for the ${options.maxProjects} largest projects`,
    labelNames: ['project', 'name'],
    collect: perProject('bytes'),
    ...common,
  });
  new Gauge({
    name: 'coffer_project_stored_files',
    help: `Files held by a project (verified and pending), for the ${options.maxProjects} largest projects`,
    labelNames: ['project', 'name'],
    collect: perProject('files'),
    ...common,
  });
  new Gauge({
    name: 'coffer_stored_bytes',
    help: 'Bytes stored by every project together',
    collect: total('bytes'),
    ...common,
  });
  new Gauge({
    name: 'coffer_stored_files',
    help: 'Files held by every project together',
    collect: total('files'),
    ...common,
  });
}

/** The `count` largest projects by bytes; ties by id, so a scrape's set does not flicker. */
function toLargest(projects: ProjectStorage[], count: number): ProjectStorage[] {
  return [...projects]
    .sort((a, b) => b.bytes - a.bytes || (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0))
    .slice(0, count);
}
