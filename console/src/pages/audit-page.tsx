import { useEffect, useState } from 'preact/hooks';
import { type AuditEvent, api, formatBytes, type Project } from '../api.ts';
import { href } from '../router.ts';
import { ActionForm, DataTable, ErrorNote, formValues, Loading, Section, useAction } from '../ui.tsx';

type Page = { events: AuditEvent[]; nextCursor: string | null };
type Filters = { type?: string; actor?: string; fileId?: string };

/** A project's audit log, newest first: who did what, from which address, to which file. */
export function AuditPage({ project }: { project: Project }) {
  const [page, setPage] = useState<Page | null>(null);
  const [filters, setFilters] = useState<Filters>({});
  const action = useAction();
  const filtering = useAction();
  const load = async (chosen: Filters, cursor?: string) => {
    const query = new URLSearchParams({ ...chosen, ...(cursor && { cursor }) }).toString();
    const answer = await api<Page>('GET', `/projects/${project.id}/audit${query ? `?${query}` : ''}`);
    setPage((before) =>
      cursor && before
        ? { events: [...before.events, ...answer.events], nextCursor: answer.nextCursor }
        : answer,
    );
  };
  useEffect(() => void action.run(() => load({})), [project.id]);
  const search = (event: Event) => {
    const values = formValues(event);
    // Only the filters given: an empty field filters nothing.
    const chosen = Object.fromEntries(
      Object.entries(values)
        .map(([name, value]) => [name, value.trim()])
        .filter(([, value]) => value),
    ) as Filters;
    return filtering.run(async () => {
      await load(chosen);
      setFilters(chosen);
    });
  };
  return (
    <Section title="Audit log">
      <ActionForm action={filtering} onSubmit={search} class="row">
        <label>
          Type <input name="type" placeholder="file.shared, user.*" size={16} />
        </label>
        <label>
          Actor id <input name="actor" size={14} />
        </label>
        <label>
          File id <input name="fileId" size={14} />
        </label>
        <button type="submit" disabled={filtering.busy}>
          Filter
        </button>
      </ActionForm>
      {!page && <Loading error={action.error} />}
      {page && page.events.length === 0 && <p>No event found.</p>}
      {page && page.events.length > 0 && (
        <DataTable headers={['Time', 'Type', 'Actor', 'Address', 'File', 'User', 'Summary']}>
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
                    {event.actor.kind === 'user' ? (
                      <UserLink project={project} id={event.actor.id} email={event.actor.email} />
                    ) : (
                      <code>{event.actor.id}</code>
                    )}
                  </div>
                )}
                {event.actor.kind === 'operator' && event.actor.email && <div>{event.actor.email}</div>}
              </td>
              <td title={event.actor.userAgent ?? undefined}>{event.actor.ip ?? '—'}</td>
              <td>{event.fileId ? <code>{event.fileId}</code> : '—'}</td>
              <td>
                {event.subject ? (
                  <UserLink project={project} id={event.subject.userId} email={event.subject.email} />
                ) : (
                  '—'
                )}
              </td>
              <td>{summarize(event)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {page?.nextCursor && (
        <button
          type="button"
          onClick={() => action.run(() => load(filters, page.nextCursor!))}
          disabled={action.busy}
        >
          Older events
        </button>
      )}
      {page && <ErrorNote error={action.error} />}
    </Section>
  );
}

/** A user by email (their id below it), linked to their page. */
function UserLink({ project, id, email }: { project: Project; id: string; email: string | null }) {
  return (
    <a href={href('projects', project.id, 'users', id)}>
      {email && <div class="audit-email">{email}</div>}
      <code>{id}</code>
    </a>
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
