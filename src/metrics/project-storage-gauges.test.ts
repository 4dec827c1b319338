import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Registry } from 'prom-client';
import { type ProjectStorage, registerProjectStorageGauges } from './project-storage-gauges.ts';

const project = (projectId: string, bytes: number, files = 1): ProjectStorage => ({
  projectId,
  name: `name-${projectId}`,
  files,
  bytes,
});

/** Registers the gauges over a list the test changes, counting the reads it takes. */
function watch(options: { maxProjects: number; refreshSeconds: number }) {
  const registry = new Registry();
  const state = { projects: [] as ProjectStorage[], reads: 0, failing: false, nowMs: 0 };
  registerProjectStorageGauges(registry, {
    ...options,
    measure: async () => {
      state.reads++;
      if (state.failing) throw new Error('database down');
      return state.projects;
    },
    now: () => state.nowMs,
  });
  const scrape = async () => {
    const text = await registry.metrics();
    const value = (series: string) => {
      const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const labelled = text.split('\n').filter((line) => line.startsWith('coffer_project_stored_bytes{'));
    return { value, labelled };
  };
  return { state, scrape };
}

it('only the largest projects get series (ties by id); the totals count every project', async () => {
  const { state, scrape } = watch({ maxProjects: 2, refreshSeconds: 15 });
  state.projects = [project('c', 10), project('a', 500, 3), project('b', 10), project('d', 0)];
  const { value, labelled } = await scrape();
  assert.deepEqual(labelled, [
    'coffer_project_stored_bytes{project="a",name="name-a"} 500',
    'coffer_project_stored_bytes{project="b",name="name-b"} 10',
  ]);
  assert.equal(value('coffer_project_stored_files{project="a",name="name-a"}'), 3);
  assert.equal(value('coffer_stored_bytes'), 520);
  assert.equal(value('coffer_stored_files'), 6);
});

it('reads the database at most once per refresh interval, however often it is scraped', async () => {
  const { state, scrape } = watch({ maxProjects: 10, refreshSeconds: 15 });
  state.projects = [project('a', 1)];
  await Promise.all([scrape(), scrape(), scrape()]);
  await scrape();
  assert.equal(state.reads, 1);
  state.projects = [project('b', 7)];
  state.nowMs = 14_999;
  assert.equal((await scrape()).value('coffer_stored_bytes'), 1);
  state.nowMs = 15_000;
  const fresh = await scrape();
  assert.equal(state.reads, 2);
  // A project that left the list leaves the gauges too.
  assert.deepEqual(fresh.labelled, ['coffer_project_stored_bytes{project="b",name="name-b"} 7']);
});

it('a database that does not answer leaves the gauges as they were', async () => {
  const { state, scrape } = watch({ maxProjects: 10, refreshSeconds: 15 });
  state.projects = [project('a', 42)];
  await scrape();
  state.failing = true;
  state.nowMs = 60_000;
  const { value } = await scrape();
  assert.equal(state.reads, 2);
  assert.equal(value('coffer_stored_bytes'), 42);
  assert.equal(value('coffer_project_stored_bytes{project="a",name="name-a"}'), 42);
});
