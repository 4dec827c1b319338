import { useEffect, useState } from 'preact/hooks';
import { api, type Project, type User } from '../api.ts';
import { DataTable, ErrorNote, Loading, StatusNote, useAction } from '../ui.tsx';

/** One session of the user, as GET …/users/:userId/sessions answers it (newest first, at most 100). */
type UserSession = {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  ip: string | null;
  userAgent: string | null;
  method: string | null;
};

type Props = { project: Project; user: User };

/**
 * Where the user is signed in (issue 41, item 6): each session's start, last refresh, address,
 * user agent and sign-in method; "End" ends one and "End all" every one, at once on every node
 * (the user's apps must sign in again there).
 */
export function UserSessions({ project, user }: Props) {
  const [sessions, setSessions] = useState<UserSession[] | null>(null);
  const [note, setNote] = useState('');
  const loading = useAction();
  const acting = useAction();
  const path = `/projects/${project.id}/users/${user.userId}/sessions`;
  const load = () =>
    loading.run(async () => setSessions((await api<{ sessions: UserSession[] }>('GET', path)).sessions));
  useEffect(() => {
    setNote('');
    void load();
  }, [path]);
  const end = (session: UserSession) =>
    acting.run(async () => {
      await api('DELETE', `${path}/${encodeURIComponent(session.id)}`);
      // Gone from the list with the note, not after the reload: what the note says is what shows.
      setSessions((before) => before?.filter((one) => one.id !== session.id) ?? null);
      setNote(`Ended the session from ${session.ip ?? 'an unknown address'}.`);
      await load();
    });
  const endAll = () => {
    if (!confirm(`End every session of ${user.email}? They sign in again everywhere.`)) return;
    return acting.run(async () => {
      const { sessionsEnded } = await api<{ sessionsEnded: number }>('DELETE', path);
      setSessions([]);
      setNote(`Ended ${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'} of ${user.email}.`);
      await load();
    });
  };
  if (!sessions) return <Loading error={loading.error} />;
  return (
    <>
      <h3>Sessions</h3>
      {sessions.length === 0 ? (
        <p>Not signed in anywhere.</p>
      ) : (
        <DataTable headers={['Signed in', 'Last refreshed', 'Address', 'User agent', 'Method', 'Actions']}>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>
                <time dateTime={session.createdAt}>{new Date(session.createdAt).toLocaleString()}</time>
              </td>
              <td>
                <time dateTime={session.lastUsedAt}>{new Date(session.lastUsedAt).toLocaleString()}</time>
              </td>
              <td>{session.ip ?? '—'}</td>
              <td>{session.userAgent ?? '—'}</td>
              <td>{session.method ?? '—'}</td>
              <td>
                <button
                  type="button"
                  aria-label={`End the session ${session.id}`}
                  disabled={acting.busy}
                  onClick={() => end(session)}
                >
                  End
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <div class="row">
        <button
          type="button"
          class="danger"
          aria-label={`End every session of ${user.email}`}
          disabled={acting.busy || sessions.length === 0}
          onClick={endAll}
        >
          End all
        </button>
      </div>
      <ErrorNote error={acting.error} />
      {note && <StatusNote text={note} />}
    </>
  );
}
