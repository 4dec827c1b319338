import { useEffect, useState } from 'preact/hooks';
import { type AuditEvent, api, formatBytes, type Project } from '../api.ts';
import { DataTable, ErrorNote, formValues, Section, useAction } from '../ui.tsx';

type Page = { events: AuditEvent[]; nextCursor: string | null };
type Filters = { type?: string; actor?: string; fileId?: string };

/** A project's audit log, newest first: who did what, from which address, to which file. */
export function AuditPage({ project }: { project: Project }) {
  const [page, setPage] = useState<Page>({ events: [], nextCursor: null });
  const [filters, setFilters] = useState<Filters>({});
  const action = useAction();
  const load = (chosen: Filters, cursor?: string) =>
    action.run(async () => {
      const query = new URLSearchParams({ ...chosen, ...(cursor && { cursor }) }).toString();
      const answer = await api<Page>('GET', `/projects/${project.id}/audit${query ? `?${query}` : ''}`);
      setPage((before) =>
        cursor ? { events: [...before.events, ...answer.events], nextCursor: answer.nextCursor } : answer,
      );
    });
  useEffect(() => void load({}), [project.id]);
  const search = (event: Event) => {
    const values = formValues(event);
    // Only the filters given: an empty field filters nothing.
    const chosen = Object.fromEntries(
      Object.entries(values)
        .map(([name, value]) => [name, value.trim()])
        .filter(([, value]) => value),
    ) as Filters;
    setFilters(chosen);
    return load(chosen);
  };
  return (
    <Section title="Audit log">
      <form onSubmit={search} class="row">
        <label>
          Type <input name="type" placeholder="file.shared, user.*" size={16} />
        </label>
        <label>
          Actor id <input name="actor" size={14} />
        </label>
        <label>
          File id <input name="fileId" size={14} />
        </label>
        <button type="submit" disabled={action.busy}>
          Filter
        </button>
      </form>
      <ErrorNote error={action.error} />
      {page.events.length === 0 && !action.busy && <p>No event found.</p>}
      {page.events.length > 0 && (
        <DataTable headers={['Time', 'Type', 'Actor', 'Address', 'File', 'Summary']}>
          {page.events.map((event) => (
            <tr key={event.id}>
              <td>
                <time dateTime={event.timestamp}>{new Date(event.timestamp).toLocaleString()}</time>
              </td>
              <td>{event.type}</td>
              <td>
                {event.actor.kind}
                {event.actor.id && (
                  <div>
                    <code>{event.actor.id}</code>
                  </div>
                )}
              </td>
              <td title={event.actor.userAgent ?? undefined}>{event.actor.ip ?? '—'}</td>
              <td>{event.fileId ? <code>{event.fileId}</code> : '—'}</td>
              <td>{summarize(event)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {page.nextCursor && (
        <button type="button" onClick={() => load(filters, page.nextCursor!)} disabled={action.busy}>
          Older events
        </button>
      )}
    </Section>
  );
}

/** What an event's thin data says, in a line: the path, the ACL entry, the size, the account. */
function summarize(event: AuditEvent): string {
  const data = event.data;
  const text = (name: string) => (typeof data[name] === 'string' ? (data[name] as string) : undefined);
  const entry = data.entry as { scope?: string; identifier?: string } | undefined;
  const parts = [
    text('filePath'),
    text('previousFilePath') && `(was ${text('previousFilePath')})`,
    text('sourceFilePath') && `(copy of ${text('sourceFilePath')})`,
    entry?.scope && `${event.type === 'file.unshared' ? 'from' : 'with'} ${entry.scope} ${entry.identifier}`,
    typeof data.sizeBytes === 'number' ? formatBytes(data.sizeBytes) : undefined,
    text('email'),
    text('role') && `role ${text('role')}`,
    text('reason'),
  ];
  return parts.filter(Boolean).join(' ');
}
