import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Project } from './api.ts';
import './console.css';
import { AuditPage } from './pages/audit-page.tsx';
import { FilesPage } from './pages/files-page.tsx';
import { FoldersPage } from './pages/folders-page.tsx';
import { ProjectPage } from './pages/project-page.tsx';
import { ProjectsPage } from './pages/projects-page.tsx';
import { QuarantinePage } from './pages/quarantine-page.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { TrashPage } from './pages/trash-page.tsx';
import { UsagePage } from './pages/usage-page.tsx';
import { UsersPage } from './pages/users-page.tsx';
import { WebhooksPage } from './pages/webhooks-page.tsx';
import { href, useRoute } from './router.ts';
import { Loading } from './ui.tsx';

function App() {
  const [operator, setOperator] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  // A session cookie from before (a reload, a new tab) signs the page in without a form; a
  // one-time link (/console/sign-in#token=…) goes to the form, which uses it.
  useEffect(() => {
    if (location.pathname.endsWith('/sign-in')) return setChecked(true);
    api<{ operator: { email: string } }>('GET', '/session')
      .then((session) => setOperator(session.operator.email))
      .catch(() => undefined)
      .finally(() => setChecked(true));
  }, []);
  if (!checked) return <Loading />;
  if (!operator) return <SignIn onSignedIn={setOperator} />;
  const signOut = async () => {
    await api('DELETE', '/session').catch(() => undefined);
    setOperator(null);
    location.hash = '';
  };
  return (
    <>
      <header class="top">
        <a class="brand" href={href()}>
          Coffer console
        </a>
        <nav aria-label="Console">
          <a href={href()}>Projects</a>
          <a href={href('usage')}>Usage</a>
        </nav>
        <span class="who">{operator}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="content">
        <Page />
      </main>
    </>
  );
}

function Page() {
  const [section, projectId, tab, itemId, subItem] = useRoute();
  if (section === 'usage') return <UsagePage />;
  if (section === 'projects' && projectId)
    return <ProjectPages projectId={projectId} tab={tab ?? 'settings'} itemId={itemId} subItem={subItem} />;
  return <ProjectsPage />;
}

const tabs = [
  ['settings', 'Settings'],
  ['users', 'Users'],
  ['files', 'Files'],
  ['folders', 'Folders'],
  ['trash', 'Trash'],
  ['quarantine', 'Quarantine'],
  ['webhooks', 'Webhooks'],
  ['audit', 'Audit log'],
] as const;

type ProjectPagesProps = { projectId: string; tab: string; itemId?: string; subItem?: string };

/**
 * `#/projects/<id>/<tab>[/<item>[/<sub-item>]]`: the item is a file of the Files tab, a user of
 * the Users tab or an owner of the Folders tab (the sub-item their folder), so every file, user
 * and folder has an address to share, which a reload keeps.
 */
function ProjectPages({ projectId, tab, itemId, subItem }: ProjectPagesProps) {
  const [project, setProject] = useState<Project | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api<{ projects: Project[] }>('GET', '/projects').then((answer) => {
      const found = answer.projects.find((candidate) => candidate.id === projectId);
      if (found) setProject(found);
      else setError(new Error('No such project'));
    }, setError);
  }, [projectId]);
  if (!project) return <Loading error={error} />;
  return (
    <>
      <h1>Project {project.name}</h1>
      <p class="hint">
        Project id <code>{project.id}</code>
      </p>
      <nav class="tabs" aria-label="Project">
        {tabs.map(([name, label]) => (
          <a
            key={name}
            href={href('projects', project.id, name)}
            aria-current={tab === name ? 'page' : undefined}
          >
            {label}
          </a>
        ))}
      </nav>
      {tab === 'users' && <UsersPage project={project} userId={itemId} />}
      {tab === 'files' && <FilesPage project={project} fileId={itemId} />}
      {tab === 'folders' && <FoldersPage project={project} owner={itemId} path={subItem ?? ''} />}
      {tab === 'trash' && <TrashPage project={project} />}
      {tab === 'quarantine' && <QuarantinePage project={project} />}
      {tab === 'webhooks' && <WebhooksPage project={project} />}
      {tab === 'audit' && <AuditPage project={project} />}
      {tab === 'settings' && <ProjectPage project={project} onChange={setProject} />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
