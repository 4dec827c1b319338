import { useState } from 'preact/hooks';
import { api, type Project } from '../api.ts';
import { ActionForm, DataTable, ErrorNote, formValues, Section, StatusNote, useAction } from '../ui.tsx';

type Props = { project: Project; onChange: (project: Project) => void };

/** A provider as the project view shows it: its secret only as `(set)` (settings-view.ts). */
type Provider = Partial<Record<(typeof urlFields)[number] | 'clientId' | 'clientSecret', string>>;

const urlFields = ['issuer', 'authorizationUrl', 'tokenUrl', 'userinfoUrl'] as const;
const urlLabels: Record<(typeof urlFields)[number], string> = {
  issuer: 'Issuer (OpenID Connect)',
  authorizationUrl: 'Authorization URL',
  tokenUrl: 'Token URL',
  userinfoUrl: 'User info URL',
};

/**
 * The project's sign-in providers (issue 37), set as `coffer project set <p> oauth.<name>.<field>=…`
 * does. The client secret is write-only: the service answers it as `(set)`, and an empty secret
 * field keeps the saved one.
 */
export function SignInProviders({ project, onChange }: Props) {
  const removing = useAction();
  const saving = useAction();
  const [saved, setSaved] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const providers = toProviders(project.settings.oauth);
  const current = editing === null ? {} : (providers.find(([name]) => name === editing)?.[1] ?? {});
  // The same assignments as the CLI: a field to a value, null clears it, `oauth.<name>` null removes the provider.
  const assign = async (body: Record<string, string | null>, done: string) => {
    const answer = await api<{ project: Project }>('PATCH', `/projects/${project.id}/settings`, body);
    onChange(answer.project);
    setSaved(done);
  };
  const remove = (name: string) => {
    if (!confirm(`Remove the sign-in provider ${name}? Its users can no longer sign in with it.`)) return;
    return removing.run(() => assign({ [`oauth.${name}`]: null }, `Removed provider ${name}.`));
  };
  const save = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    const name = (editing ?? values.name ?? '').trim();
    const field = (key: string) => (values[key] ?? '').trim() || null;
    const body: Record<string, string | null> = { [`oauth.${name}.clientId`]: field('clientId') };
    for (const key of urlFields) body[`oauth.${name}.${key}`] = field(key);
    const secret = field('clientSecret');
    if (secret !== null) body[`oauth.${name}.clientSecret`] = secret;
    return saving.run(async () => {
      await assign(body, `Saved provider ${name}.`);
      form.reset();
      setEditing(null);
    });
  };
  return (
    <Section title="Sign-in providers">
      <p class="hint">
        Sign in with Google, Apple, Microsoft, GitLab or GitHub (presets: their endpoints are known), or any
        OpenID Connect provider by its issuer. Apps start a sign-in at <code>/api/v1/oauth/&lt;name&gt;</code>
        ; the provider's callback is <code>/api/v1/oauth/&lt;name&gt;/callback</code> on this service's public
        URL.
      </p>
      {providers.length === 0 ? (
        <p>None.</p>
      ) : (
        <DataTable headers={['Name', 'Client id', 'Client secret', 'Endpoints', 'Actions']}>
          {providers.map(([name, provider]) => (
            <tr key={name}>
              <td>
                <code>{name}</code>
              </td>
              <td>
                <code>{provider.clientId ?? '—'}</code>
              </td>
              <td>{provider.clientSecret ? '(set)' : 'not set'}</td>
              <td>{describeEndpoints(provider)}</td>
              <td>
                <button type="button" aria-label={`Edit provider ${name}`} onClick={() => setEditing(name)}>
                  Edit
                </button>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Remove provider ${name}`}
                  onClick={() => remove(name)}
                  disabled={removing.busy}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ErrorNote error={removing.error} />
      <ActionForm
        action={saving}
        onSubmit={save}
        class="grid-form"
        aria-label={editing === null ? 'Add a provider' : `Change provider ${editing}`}
        key={editing ?? ''}
      >
        <label>
          Provider name
          <input
            name="name"
            required
            pattern="[a-z0-9][a-z0-9\-]{0,31}"
            placeholder="google"
            value={editing ?? undefined}
            disabled={editing !== null}
          />
        </label>
        <label>
          Client id <input name="clientId" required defaultValue={current.clientId ?? ''} />
        </label>
        <label>
          Client secret
          <input
            name="clientSecret"
            type="password"
            autocomplete="off"
            required={!current.clientSecret}
            placeholder={current.clientSecret ? '(set): leave empty to keep' : ''}
          />
        </label>
        {urlFields.map((key) => (
          <label key={key}>
            {urlLabels[key]}
            <input name={key} type="url" defaultValue={current[key] ?? ''} />
          </label>
        ))}
        <div class="row">
          <button type="submit" disabled={saving.busy}>
            {editing === null ? 'Add provider' : `Save provider ${editing}`}
          </button>
          {editing !== null && (
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          )}
        </div>
      </ActionForm>
      {saved && <StatusNote text={saved} />}
    </Section>
  );
}

/** The providers as the service shows them, in name order. */
function toProviders(value: unknown): [string, Provider][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, Provider>).sort(([a], [b]) => a.localeCompare(b));
}

/** Where the provider lives: its issuer, its OAuth 2.0 URLs, or its preset's. */
function describeEndpoints(provider: Provider): string {
  if (provider.issuer) return provider.issuer;
  if (provider.authorizationUrl) return `${provider.authorizationUrl} (OAuth 2.0)`;
  return 'preset';
}
