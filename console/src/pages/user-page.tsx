import { useEffect, useState } from 'preact/hooks';
import { api, formatBytes, type Identity, type Project, type User } from '../api.ts';
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
import { UserFactors } from './user-factors.tsx';

type Props = { project: Project; userId: string };

/**
 * One user (`#/projects/<p>/users/<userId>`): the record, role, enable or disable, password,
 * delete, and the identities that sign them in at providers.
 */
export function UserPage({ project, userId }: Props) {
  const [user, setUser] = useState<User | null>(null);
  const [note, setNote] = useState('');
  const loading = useAction();
  const acting = useAction();
  const renaming = useAction();
  const resetting = useAction();
  const path = `/projects/${project.id}/users/${userId}`;
  useEffect(() => {
    setUser(null);
    setNote('');
    void loading.run(async () => setUser((await api<{ user: User }>('GET', path)).user));
  }, [path]);
  const back = (
    <p>
      <a href={href('projects', project.id, 'users')}>All users</a>
    </p>
  );
  if (!user)
    return (
      <>
        {back}
        <Loading error={loading.error} />
      </>
    );
  // The usage comes with the page's read only: a change keeps it.
  const changed = (next: User) => setUser((before) => ({ ...before, ...next }));
  const update = (action: typeof acting, change: { role?: string; enabled?: boolean }) =>
    action.run(async () => {
      changed((await api<{ user: User }>('PATCH', path, change)).user);
      setNote(`Updated ${user.email}.`);
    });
  const saveRole = (event: Event) => {
    const { role } = formValues(event);
    if (role && role !== user.role) return update(renaming, { role });
  };
  const resetPassword = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { password } = formValues(event);
    return resetting.run(async () => {
      await api('POST', `${path}/password`, { password });
      form.reset();
      setNote(`Password of ${user.email} reset; their sessions ended.`);
    });
  };
  // The user chooses the password themselves, from the link in the mail (issue 23).
  const sendResetMail = () =>
    acting.run(async () => {
      await api('POST', `${path}/reset-mail`);
      setNote(`A password reset mail is on its way to ${user.email}.`);
    });
  const remove = () => {
    if (!confirm(`Delete ${user.email} with all their files? This cannot be undone.`)) return;
    return acting.run(async () => {
      await api('DELETE', path);
      location.hash = href('projects', project.id, 'users');
    });
  };
  return (
    <>
      {back}
      <Section title={`User ${user.email}`}>
        <dl class="record">
          <dt>Email</dt>
          <dd>{user.email}</dd>
          <dt>User id</dt>
          <dd>
            <code>{user.userId}</code>
          </dd>
          <dt>State</dt>
          <dd>{user.enabled ? 'enabled' : 'disabled'}</dd>
          <dt>Usage</dt>
          <dd>{user.usage ? `${user.usage.files} files, ${formatBytes(user.usage.bytes)}` : '—'}</dd>
          <dt>Created</dt>
          <dd>{new Date(user.createdAt).toLocaleString()}</dd>
        </dl>
        <ActionForm action={renaming} onSubmit={saveRole} class="row">
          <label>
            Role of {user.email}
            <input name="role" defaultValue={user.role} required size={12} key={user.role} />
          </label>
          <button type="submit" aria-label={`Save role of ${user.email}`} disabled={renaming.busy}>
            Save role
          </button>
        </ActionForm>
        <div class="row">
          <button
            type="button"
            aria-label={`${user.enabled ? 'Disable' : 'Enable'} ${user.email}`}
            onClick={() => update(acting, { enabled: !user.enabled })}
          >
            {user.enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            aria-label={`Send a password reset mail to ${user.email}`}
            onClick={sendResetMail}
          >
            Send reset mail
          </button>
          <button type="button" class="danger" aria-label={`Delete ${user.email}`} onClick={remove}>
            Delete
          </button>
        </div>
        <ErrorNote error={acting.error} />
        {note && <StatusNote text={note} />}
      </Section>
      <Section title="Set a password">
        <ActionForm action={resetting} onSubmit={resetPassword} class="row">
          <label>
            New password for {user.email}
            <input name="password" type="password" autocomplete="new-password" required />
          </label>
          <button type="submit" disabled={resetting.busy}>
            Set password
          </button>
        </ActionForm>
        <p class="hint">
          Ends every session of the user; or send them a reset mail to choose one themselves.
        </p>
      </Section>
      <UserFactors project={project} user={user} />
      <Identities identities={user.identities ?? []} />
    </>
  );
}

/** The provider identities of a user: they unlink them themselves (DELETE /api/v1/oauth/:provider/unlink). */
function Identities({ identities }: { identities: Identity[] }) {
  return (
    <Section title="Sign-in identities">
      {identities.length === 0 ? (
        <p>None.</p>
      ) : (
        <DataTable headers={['Provider', 'Id at the provider', 'Display name', 'Email']}>
          {identities.map((identity) => (
            <tr key={`${identity.provider}:${identity.id}`}>
              <td>
                <code>{identity.provider}</code>
              </td>
              <td>
                <code>{identity.id}</code>
              </td>
              <td>{identity.displayName}</td>
              <td>{identity.email ?? '—'}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}
