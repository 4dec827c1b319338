import { useEffect, useState } from 'preact/hooks';
import { api, type Project } from '../api.ts';
import { ErrorNote, formValues, OnceSecret, Section, StatusNote, useAction } from '../ui.tsx';
import { RenditionPresets } from './rendition-presets.tsx';

/** A project's settings, origins and app credentials. */
export function ProjectPage({
  project,
  onChange,
}: {
  project: Project;
  onChange: (project: Project) => void;
}) {
  return (
    <>
      <Origins project={project} onChange={onChange} />
      <Apps project={project} />
      <Settings project={project} onChange={onChange} />
      <RenditionPresets project={project} onChange={onChange} />
    </>
  );
}

function Origins({ project, onChange }: { project: Project; onChange: (project: Project) => void }) {
  const save = useAction();
  const replace = (origins: string[]) =>
    save.run(async () => {
      const answer = await api<{ project: Project }>('PUT', `/projects/${project.id}/origins`, { origins });
      onChange(answer.project);
    });
  const add = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { origin } = formValues(event);
    if (!origin) return;
    return replace([...project.allowedOrigins, origin]).then(() => form.reset());
  };
  return (
    <Section title="Allowed origins">
      <p class="hint">Browser apps on these origins may call the API without the app secret (CORS).</p>
      {project.allowedOrigins.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul class="plain">
          {project.allowedOrigins.map((origin) => (
            <li key={origin}>
              <code>{origin}</code>{' '}
              <button
                type="button"
                aria-label={`Remove origin ${origin}`}
                onClick={() => replace(project.allowedOrigins.filter((kept) => kept !== origin))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} class="row">
        <label>
          New origin <input name="origin" type="url" placeholder="https://app.example.com" required />
        </label>
        <button type="submit" disabled={save.busy}>
          Add origin
        </button>
      </form>
      <ErrorNote error={save.error} />
    </Section>
  );
}

type App = { appId: string; createdAt: string };

function Apps({ project }: { project: Project }) {
  const [apps, setApps] = useState<App[]>([]);
  const [secret, setSecret] = useState<{ appId: string; appSecret: string } | null>(null);
  const action = useAction();
  const load = () =>
    action.run(async () => setApps((await api<{ apps: App[] }>('GET', `/projects/${project.id}/apps`)).apps));
  useEffect(() => void load(), [project.id]);
  const create = () =>
    action.run(async () => {
      setSecret(await api<{ appId: string; appSecret: string }>('POST', `/projects/${project.id}/apps`));
      setApps((await api<{ apps: App[] }>('GET', `/projects/${project.id}/apps`)).apps);
    });
  const revoke = (appId: string) => {
    if (!confirm(`Revoke app ${appId}? Clients using it are refused at once.`)) return;
    return action.run(async () => {
      await api('DELETE', `/projects/${project.id}/apps/${appId}`);
      setApps((await api<{ apps: App[] }>('GET', `/projects/${project.id}/apps`)).apps);
    });
  };
  return (
    <Section title="App credentials">
      <ul class="plain">
        {apps.map((app) => (
          <li key={app.appId}>
            <code>{app.appId}</code>{' '}
            <span class="hint">since {new Date(app.createdAt).toLocaleDateString()}</span>{' '}
            <button
              type="button"
              class="danger"
              aria-label={`Revoke app ${app.appId}`}
              onClick={() => revoke(app.appId)}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={create} disabled={action.busy}>
        Create app credential
      </button>
      {secret && (
        <div class="stack">
          <p>
            New app id <code>{secret.appId}</code>
          </p>
          <OnceSecret label="App secret" value={secret.appSecret} />
        </div>
      )}
      <ErrorNote error={action.error} />
    </Section>
  );
}

/**
 * Every setting that `coffer project set` takes as text; empty restores the default. Settings
 * kept as an object (the rendition presets) are set one entry at a time, in their own section.
 */
function Settings({ project, onChange }: { project: Project; onChange: (project: Project) => void }) {
  const save = useAction();
  const [saved, setSaved] = useState('');
  const names = Object.keys(project.settings)
    .filter((name) => isTextSetting(project.settings[name]))
    .sort();
  const submit = (event: Event) => {
    const values = formValues(event);
    const changed: Record<string, string | null> = {};
    for (const name of names)
      if (values[name] !== toText(project.settings[name])) changed[name] = values[name] || null;
    return save.run(async () => {
      if (Object.keys(changed).length === 0) return setSaved('Nothing changed.');
      const answer = await api<{ project: Project }>('PATCH', `/projects/${project.id}/settings`, changed);
      onChange(answer.project);
      setSaved(`Saved ${Object.keys(changed).join(', ')}.`);
    });
  };
  return (
    <Section title="Settings">
      <form onSubmit={submit} class="grid-form" key={JSON.stringify(project.settings)}>
        {names.map((name) => (
          <label key={name}>
            {name}
            <input name={name} defaultValue={toText(project.settings[name])} placeholder="default" />
          </label>
        ))}
        <ErrorNote error={save.error} />
        {saved && <StatusNote text={saved} />}
        <button type="submit" disabled={save.busy}>
          Save settings
        </button>
      </form>
    </Section>
  );
}

function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** Text, a number, a flag, a list or unset: what one text input shows and edits. */
function isTextSetting(value: unknown): boolean {
  return value === null || typeof value !== 'object' || Array.isArray(value);
}
