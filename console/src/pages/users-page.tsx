import { useEffect, useState } from 'preact/hooks';
import { api, formatBytes, type Project, type User } from '../api.ts';
import { href } from '../router.ts';
import {
  ActionForm,
  DataTable,
  ErrorNote,
  formValues,
  Loading,
  Section,
  StatusNote,
  useAction,
} from '../ui.tsx';
import { UserPage } from './user-page.tsx';

type Page = { users: User[]; next: string | null };

/**
 * `#/projects/<p>/users`: the project's users; `#/projects/<p>/users/<userId>`: one user's
 * page, where the operator changes them (a link to it opens them, a reload keeps them open).
 */
export function UsersPage({ project, userId }: { project: Project; userId?: string }) {
  if (userId) return <UserPage project={project} userId={userId} />;
  return <UserList project={project} />;
}

/** The users a page at a time in email order (or one by email), and a form to create one. */
function UserList({ project }: { project: Project }) {
  const [page, setPage] = useState<Page | null>(null);
  const [query, setQuery] = useState('');
  const [note, setNote] = useState('');
  const listing = useAction();
  const finding = useAction();
  const creating = useAction();
  const path = `/projects/${project.id}/users`;
  const fetchPage = (options: { email?: string; after?: string } = {}) => {
    const search = new URLSearchParams(options).toString();
    return api<Page>('GET', `${path}${search ? `?${search}` : ''}`);
  };
  useEffect(() => void listing.run(async () => setPage(await fetchPage())), [project.id]);
  const more = (after: string) =>
    listing.run(async () => {
      const answer = await fetchPage({ after });
      setPage((before) => ({ users: [...(before?.users ?? []), ...answer.users], next: answer.next }));
    });
  const search = (event: Event) => {
    const { email } = formValues(event);
    return finding.run(async () => {
      setPage(await fetchPage(email ? { email } : {}));
      setQuery(email ?? '');
    });
  };
  const create = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { email, password, role } = formValues(event);
    return creating.run(async () => {
      const answer = await api<{ user: User }>('POST', path, { email, password, ...(role ? { role } : {}) });
      setNote(`Created ${answer.user.email}.`);
      form.reset();
      const created = { ...answer.user, usage: { files: 0, bytes: 0 } };
      setPage((before) => ({ users: [created, ...(before?.users ?? [])], next: before?.next ?? null }));
    });
  };
  if (!page) return <Loading error={listing.error} />;
  return (
    <>
      <Section title="Users">
        <ActionForm action={finding} onSubmit={search} class="row">
          <label>
            Find by email <input name="email" type="search" defaultValue={query} />
          </label>
          <button type="submit" disabled={finding.busy}>
            Search
          </button>
        </ActionForm>
        {note && <StatusNote text={note} />}
        <DataTable headers={['Email', 'Role', 'State', 'Usage']}>
          {page.users.map((user) => (
            <tr key={user.userId}>
              <td>
                <a href={href('projects', project.id, 'users', user.userId)} title={`user id ${user.userId}`}>
                  {user.email}
                </a>
              </td>
              <td>{user.role}</td>
              <td>{user.enabled ? 'enabled' : 'disabled'}</td>
              <td>{user.usage ? `${user.usage.files} files, ${formatBytes(user.usage.bytes)}` : '—'}</td>
            </tr>
          ))}
        </DataTable>
        {page.users.length === 0 && <p>No user found.</p>}
        <ErrorNote error={listing.error} />
        {page.next && (
          <button type="button" onClick={() => more(page.next!)} disabled={listing.busy}>
            More users
          </button>
        )}
      </Section>
      <Section title="New user">
        <ActionForm action={creating} onSubmit={create} class="grid-form">
          <label>
            Email <input name="email" type="email" required autocomplete="off" />
          </label>
          <label>
            Password <input name="password" type="password" required autocomplete="new-password" />
          </label>
          <label>
            Role (optional) <input name="role" />
          </label>
          <button type="submit" disabled={creating.busy}>
            Create user
          </button>
        </ActionForm>
      </Section>
    </>
  );
}
