import { useEffect, useState } from 'preact/hooks';
import { api, type Project } from '../api.ts';
import { href } from '../router.ts';
import {
  ActionForm,
  DataTable,
  ErrorNote,
  formValues,
  Loading,
  OnceSecret,
  Section,
  useAction,
} from '../ui.tsx';

type Created = { project: Project; appId: string; appSecret: string };

/** Every project, a form to create one (its app secret shown once), and the signing keys. */
export function ProjectsPage() {
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const load = useAction();
  const create = useAction();
  const refresh = () =>
    load.run(async () => setProjects((await api<{ projects: Project[] }>('GET', '/projects')).projects));
  useEffect(() => void refresh(), []);
  const submit = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { name, origins } = formValues(event);
    return create.run(async () => {
      const list = (origins ?? '').split(/\s+/).filter(Boolean);
      setCreated(await api<Created>('POST', '/projects', { name, origins: list }));
      form.reset();
      await refresh();
    });
  };
  // The page appears once the list is in: the sections below it never move as it arrives.
  if (!projects)
    return (
      <>
        <h1>Projects</h1>
        <Loading error={load.error} />
      </>
    );
  return (
    <>
      <h1>Projects</h1>
      <Section title="All projects">
        <ErrorNote error={load.error} />
        {projects.length === 0 && <p>No project yet.</p>}
        {projects.length > 0 && (
          <DataTable headers={['Name', 'Project id', 'Origins', 'Created']}>
            {projects.map((project) => (
              <tr key={project.id}>
                <td>
                  <a href={href('projects', project.id)}>{project.name}</a>
                </td>
                <td>
                  <code>{project.id}</code>
                </td>
                <td>{project.allowedOrigins.length}</td>
                <td>{new Date(project.createdAt).toLocaleDateString()}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      <Section title="New project">
        <ActionForm action={create} onSubmit={submit} class="stack">
          <label>
            Project name (letters, digits, _ . -)
            <input name="name" required maxLength={64} pattern="[A-Za-z0-9_.\-]+" />
          </label>
          <label>
            Allowed origins (one per line, optional)
            <textarea name="origins" rows={2} placeholder="https://app.example.com" />
          </label>
          <button type="submit" disabled={create.busy}>
            Create project
          </button>
        </ActionForm>
        {created && (
          <div class="stack">
            <p>
              Created <a href={href('projects', created.project.id)}>{created.project.name}</a>, app id{' '}
              <code>{created.appId}</code>.
            </p>
            <OnceSecret label="App secret" value={created.appSecret} />
          </div>
        )}
      </Section>
      <SigningKeys />
    </>
  );
}

/** Rotating the service's signing keys (every project's), as `coffer keys rotate`. */
function SigningKeys() {
  const rotate = useAction();
  const [done, setDone] = useState('');
  const submit = (event: Event) => {
    const { purpose, retireOld } = formValues(event);
    return rotate.run(async () => {
      const answer = await api<{ rotated: unknown[] }>('POST', '/keys/rotate', {
        purpose,
        retireOld: retireOld === 'on',
      });
      setDone(`Rotated ${answer.rotated.length} key(s).`);
    });
  };
  return (
    <Section title="Signing keys">
      <ActionForm action={rotate} onSubmit={submit} class="stack">
        <label>
          Keys to rotate
          <select name="purpose">
            <option value="all">Tokens and links</option>
            <option value="token">Tokens</option>
            <option value="link">Links</option>
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" name="retireOld" /> Retire the old keys at once (after a leak: signs everyone
          out)
        </label>
        <button type="submit" disabled={rotate.busy}>
          Rotate signing keys
        </button>
        {done && <p role="status">{done}</p>}
      </ActionForm>
    </Section>
  );
}
