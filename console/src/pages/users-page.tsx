import { useEffect, useState } from 'preact/hooks';
import { api, formatBytes, type Project, type User } from '../api.ts';
import { DataTable, ErrorNote, formValues, Section, StatusNote, useAction } from '../ui.tsx';

type Page = { users: User[]; next: string | null };

/** A project's users a page at a time (or one by email); create, change role, disable, reset, delete. */
export function UsersPage({ project }: { project: Project }) {
  const [page, setPage] = useState<Page>({ users: [], next: null });
  const [query, setQuery] = useState('');
  const [note, setNote] = useState('');
  const action = useAction();
  const path = `/projects/${project.id}/users`;
  const load = (options: { email?: string; after?: string } = {}) =>
    action.run(async () => {
      const search = new URLSearchParams(options).toString();
      const answer = await api<Page>('GET', `${path}${search ? `?${search}` : ''}`);
      setPage((before) =>
        options.after ? { users: [...before.users, ...answer.users], next: answer.next } : answer,
      );
    });
  useEffect(() => void load(), [project.id]);
  const search = (event: Event) => {
    const { email } = formValues(event);
    setQuery(email ?? '');
    return load(email ? { email } : {});
  };
  const create = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { email, password, role } = formValues(event);
    return action.run(async () => {
      const answer = await api<{ user: User }>('POST', path, { email, password, ...(role ? { role } : {}) });
      setNote(`Created ${answer.user.email}.`);
      form.reset();
      setPage((before) => ({
        ...before,
        users: [{ ...answer.user, usage: { files: 0, bytes: 0 } }, ...before.users],
      }));
    });
  };
  const replaceUser = (user: User) =>
    setPage((before) => ({
      ...before,
      users: before.users.map((kept) => (kept.userId === user.userId ? { ...kept, ...user } : kept)),
    }));
  const update = (user: User, change: { role?: string; enabled?: boolean }) =>
    action.run(async () => {
      replaceUser((await api<{ user: User }>('PATCH', `${path}/${user.userId}`, change)).user);
      setNote(`Updated ${user.email}.`);
    });
  const [resetting, setResetting] = useState<User | null>(null);
  const resetPassword = (event: Event) => {
    const user = resetting!;
    const { password } = formValues(event);
    return action.run(async () => {
      await api('POST', `${path}/${user.userId}/password`, { password });
      setResetting(null);
      setNote(`Password of ${user.email} reset; their sessions ended.`);
    });
  };
  // The user chooses the password themselves, from the link in the mail (issue 23).
  const sendResetMail = (user: User) =>
    action.run(async () => {
      await api('POST', `${path}/${user.userId}/reset-mail`);
      setNote(`A password reset mail is on its way to ${user.email}.`);
    });
  const remove = (user: User) => {
    if (!confirm(`Delete ${user.email} with all their files? This cannot be undone.`)) return;
    return action.run(async () => {
      await api('DELETE', `${path}/${user.userId}`);
      setPage((before) => ({ ...before, users: before.users.filter((kept) => kept.userId !== user.userId) }));
      setNote(`Deleted ${user.email}.`);
    });
  };
  return (
    <>
      <Section title="Users">
        <form onSubmit={search} class="row">
          <label>
            Find by email <input name="email" type="search" defaultValue={query} />
          </label>
          <button type="submit">Search</button>
        </form>
        <ErrorNote error={action.error} />
        {note && <StatusNote text={note} />}
        <DataTable headers={['Email', 'User id', 'Role', 'State', 'Usage', 'Actions']}>
          {page.users.map((user) => (
            <tr key={user.userId}>
              <td>{user.email}</td>
              <td>
                <code>{user.userId}</code>
              </td>
              <td>
                <RoleForm user={user} onSave={(role) => update(user, { role })} />
              </td>
              <td>{user.enabled ? 'enabled' : 'disabled'}</td>
              <td>{user.usage ? `${user.usage.files} files, ${formatBytes(user.usage.bytes)}` : '—'}</td>
              <td class="actions">
                <button
                  type="button"
                  aria-label={`${user.enabled ? 'Disable' : 'Enable'} ${user.email}`}
                  onClick={() => update(user, { enabled: !user.enabled })}
                >
                  {user.enabled ? 'Disable' : 'Enable'}
                </button>
                <button
                  type="button"
                  aria-label={`Reset password of ${user.email}`}
                  onClick={() => setResetting(user)}
                >
                  Reset password
                </button>
                <button
                  type="button"
                  aria-label={`Send a password reset mail to ${user.email}`}
                  onClick={() => sendResetMail(user)}
                >
                  Send reset mail
                </button>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Delete ${user.email}`}
                  onClick={() => remove(user)}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
        {page.users.length === 0 && <p>No user found.</p>}
        {resetting && (
          <form onSubmit={resetPassword} class="row">
            <label>
              New password for {resetting.email}
              <input name="password" type="password" autocomplete="new-password" required />
            </label>
            <button type="submit" disabled={action.busy}>
              Set password
            </button>
            <button type="button" onClick={() => setResetting(null)}>
              Cancel
            </button>
          </form>
        )}
        {page.next && (
          <button type="button" onClick={() => load({ after: page.next! })}>
            More users
          </button>
        )}
      </Section>
      <Section title="New user">
        <form onSubmit={create} class="grid-form">
          <label>
            Email <input name="email" type="email" required autocomplete="off" />
          </label>
          <label>
            Password <input name="password" type="password" required autocomplete="new-password" />
          </label>
          <label>
            Role (optional) <input name="role" />
          </label>
          <button type="submit" disabled={action.busy}>
            Create user
          </button>
        </form>
      </Section>
    </>
  );
}

function RoleForm({ user, onSave }: { user: User; onSave: (role: string) => void }) {
  const submit = (event: Event) => {
    const { role } = formValues(event);
    if (role && role !== user.role) onSave(role);
  };
  return (
    <form onSubmit={submit} class="row compact">
      <input name="role" defaultValue={user.role} aria-label={`Role of ${user.email}`} required size={8} />
      <button type="submit" aria-label={`Save role of ${user.email}`}>
        Save
      </button>
    </form>
  );
}
