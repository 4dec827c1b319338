import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { DataTable, ErrorNote, Loading, Section, StatusNote, useAction } from '../ui.tsx';

/** A passkey as the console API lists it. */
type Passkey = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/**
 * A user's passkeys (issue 41), on the user page: an operator sees them and removes one (a lost
 * device); the user registers them from the app. `user.passkey_removed` names the operator.
 */
export function UserPasskeys({
  projectId,
  userId,
  email,
}: {
  projectId: string;
  userId: string;
  email: string;
}) {
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [note, setNote] = useState('');
  const loading = useAction();
  const removing = useAction();
  const path = `/projects/${projectId}/users/${userId}/passkeys`;
  const load = () =>
    loading.run(async () => setPasskeys((await api<{ passkeys: Passkey[] }>('GET', path)).passkeys));
  useEffect(() => {
    setPasskeys(null);
    setNote('');
    void load();
  }, [path]);
  const remove = (passkey: Passkey) => {
    if (!confirm(`Remove the passkey "${passkey.name}" of ${email}? It will sign in no more.`)) return;
    return removing.run(async () => {
      await api('DELETE', `${path}/${encodeURIComponent(passkey.id)}`);
      setPasskeys((before) => before?.filter((one) => one.id !== passkey.id) ?? null);
      setNote(`Removed the passkey "${passkey.name}".`);
    });
  };
  const when = (at: string | null) => (at ? new Date(at).toLocaleString() : '—');
  return (
    <Section title="Passkeys">
      {passkeys === null ? (
        <Loading error={loading.error} />
      ) : passkeys.length === 0 ? (
        <p>None.</p>
      ) : (
        <DataTable headers={['Name', 'Added', 'Last used', '']}>
          {passkeys.map((passkey) => (
            <tr key={passkey.id}>
              <td>{passkey.name}</td>
              <td>{when(passkey.createdAt)}</td>
              <td>{when(passkey.lastUsedAt)}</td>
              <td>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Remove the passkey ${passkey.name}`}
                  disabled={removing.busy}
                  onClick={() => remove(passkey)}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ErrorNote error={removing.error} />
      {note && <StatusNote text={note} />}
    </Section>
  );
}
