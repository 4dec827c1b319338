import { useEffect, useState } from 'preact/hooks';
import { api, type Project } from '../api.ts';
import { ActionForm, ErrorNote, formValues, Loading, OnceSecret, Section, useAction } from '../ui.tsx';
import { ProjectSettings } from './project-settings.tsx';
import { RenditionPresets } from './rendition-presets.tsx';
import { SignInProviders } from './sign-in-providers.tsx';

type App = { appId: string; createdAt: string };

/**
 * A project's origins, app credentials and settings. The page waits for the app credentials
 * (the one part it reads) before it shows anything, so no section moves when they arrive.
 */
export function ProjectPage({
  project,
  onChange,
}: {
  project: Project;
  onChange: (project: Project) => void;
}) {
  const [apps, setApps] = useState<App[] | null>(null);
  const loading = useAction();
  const loadApps = async () =>
    setApps((await api<{ apps: App[] }>('GET', `/projects/${project.id}/apps`)).apps);
  useEffect(() => void loading.run(loadApps), [project.id]);
  if (!apps) return <Loading error={loading.error} />;
  return (
    <>
      <Origins project={project} onChange={onChange} />
      <Apps project={project} apps={apps} reload={loadApps} />
      <ProjectSettings project={project} onChange={onChange} />
      <RenditionPresets project={project} onChange={onChange} />
      <SignInProviders project={project} onChange={onChange} />
    </>
  );
}

function Origins({ project, onChange }: { project: Project; onChange: (project: Project) => void }) {
  const removing = useAction();
  const adding = useAction();
  const replace = async (origins: string[]) => {
    const answer = await api<{ project: Project }>('PUT', `/projects/${project.id}/origins`, { origins });
    onChange(answer.project);
  };
  const add = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { origin } = formValues(event);
    if (!origin) return;
    return adding.run(async () => {
      await replace([...project.allowedOrigins, origin]);
      form.reset();
    });
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
                onClick={() =>
                  removing.run(() => replace(project.allowedOrigins.filter((kept) => kept !== origin)))
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={removing.error} />
      <ActionForm action={adding} onSubmit={add} class="row">
        <label>
          New origin <input name="origin" type="url" placeholder="https://app.example.com" required />
        </label>
        <button type="submit" disabled={adding.busy}>
          Add origin
        </button>
      </ActionForm>
    </Section>
  );
}

type AppsProps = { project: Project; apps: App[]; reload: () => Promise<void> };

function Apps({ project, apps, reload }: AppsProps) {
  const [secret, setSecret] = useState<{ appId: string; appSecret: string } | null>(null);
  const action = useAction();
  const create = () =>
    action.run(async () => {
      setSecret(await api<{ appId: string; appSecret: string }>('POST', `/projects/${project.id}/apps`));
      await reload();
    });
  const revoke = (appId: string) => {
    if (!confirm(`Revoke app ${appId}? Clients using it are refused at once.`)) return;
    return action.run(async () => {
      await api('DELETE', `/projects/${project.id}/apps/${appId}`);
      await reload();
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
