import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api, formatBytes } from '../api.ts';
import { href } from '../router.ts';
import { DataTable, ErrorNote, Section, useAction } from '../ui.tsx';

type ProjectUsage = { projectId: string; name: string; files: number; bytes: number };
type Sample = {
  at: number;
  uploadedBytes: number;
  downloadedBytes: number;
  uploadsVerified: number;
  downloadLinks: number;
};
type Usage = { projects: ProjectUsage[]; traffic: { intervalSeconds: number; samples: Sample[] } };
type UserUsage = { userId: string; email: string; files: number; bytes: number };

/** Storage per project and per user (the quota counters), and this node's traffic over the last day. */
export function UsagePage() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [chosen, setChosen] = useState('');
  const [users, setUsers] = useState<UserUsage[] | null>(null);
  const action = useAction();
  useEffect(() => void action.run(async () => setUsage(await api<Usage>('GET', '/usage'))), []);
  useEffect(() => {
    setUsers(null);
    if (chosen)
      void action.run(async () =>
        setUsers((await api<{ users: UserUsage[] }>('GET', `/projects/${chosen}/usage?limit=20`)).users),
      );
  }, [chosen]);
  const largest = Math.max(1, ...(usage?.projects.map((project) => project.bytes) ?? []));
  return (
    <>
      <h1>Usage</h1>
      <ErrorNote error={action.error} />
      {usage && (
        <>
          <Section title="Traffic on this node">
            <TrafficChart samples={usage.traffic.samples} />
            <p class="hint">
              From the counters of <code>/metrics</code>, sampled every {usage.traffic.intervalSeconds} s
              since this node started (kept for a day).
            </p>
          </Section>
          <Section title="Storage by project">
            <DataTable headers={['Project', 'Files', 'Bytes', 'Share of the largest']}>
              {usage.projects.map((project) => (
                <tr key={project.projectId}>
                  <td>{project.name}</td>
                  <td>{project.files}</td>
                  <td>{formatBytes(project.bytes)}</td>
                  <td>
                    <meter
                      min={0}
                      max={largest}
                      value={project.bytes}
                      aria-label={`Storage of ${project.name}`}
                    />
                  </td>
                </tr>
              ))}
            </DataTable>
          </Section>
          <Section title="Storage by user">
            <label>
              Users of project
              <select
                value={chosen}
                onChange={(event) => setChosen((event.currentTarget as HTMLSelectElement).value)}
              >
                <option value="">Choose a project</option>
                {usage.projects.map((project) => (
                  <option key={project.projectId} value={project.projectId}>
                    {project.name}
                  </option>
                ))}
              </select>
            </label>
            {users && users.length === 0 && <p>No user holds files.</p>}
            {users && users.length > 0 && (
              <DataTable headers={['User', 'Files', 'Bytes']}>
                {users.map((user) => (
                  <tr key={user.userId}>
                    <td>
                      <a
                        href={href('projects', chosen, 'users', user.userId)}
                        title={`user id ${user.userId}`}
                      >
                        {user.email}
                      </a>
                    </td>
                    <td>{user.files}</td>
                    <td>{formatBytes(user.bytes)}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </Section>
        </>
      )}
    </>
  );
}

/** Bytes uploaded and downloaded per interval (the counters' differences), drawn by uPlot. */
function TrafficChart({ samples }: { samples: Sample[] }) {
  const holder = useRef<HTMLDivElement>(null);
  // Drawn before the browser paints (a layout effect), so the text below never moves down.
  useLayoutEffect(() => {
    const element = holder.current;
    if (!element || samples.length < 2) return;
    // Each point: what the counters grew since the sample before (none before the first).
    const growth = (field: 'uploadedBytes' | 'downloadedBytes') =>
      samples.map((sample, index) =>
        index === 0 ? 0 : Math.max(0, sample[field] - samples[index - 1]![field]),
      );
    const data: uPlot.AlignedData = [
      samples.map((sample) => sample.at / 1000),
      growth('uploadedBytes'),
      growth('downloadedBytes'),
    ];
    const chart = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        series: [
          {},
          {
            label: 'Uploaded',
            stroke: '#2563eb',
            width: 2,
            value: (_u, value) => (value == null ? '—' : formatBytes(value)),
          },
          {
            label: 'Downloaded',
            stroke: '#16a34a',
            width: 2,
            value: (_u, value) => (value == null ? '—' : formatBytes(value)),
          },
        ],
        axes: [{}, { values: (_u, values) => values.map((value) => formatBytes(value)), size: 70 }],
      },
      data,
      element,
    );
    return () => chart.destroy();
  }, [samples]);
  const last = samples.at(-1);
  return (
    <figure>
      <div ref={holder} class="chart" role="img" aria-label="Bytes uploaded and downloaded over time" />
      {last && (
        <figcaption>
          Since start: {formatBytes(last.uploadedBytes)} uploaded ({last.uploadsVerified} files verified),{' '}
          {formatBytes(last.downloadedBytes)} downloaded through the gateway, {last.downloadLinks} download
          links issued.
        </figcaption>
      )}
    </figure>
  );
}
