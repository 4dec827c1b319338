import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type FolderPage, type FolderShare, type FolderShares, type Project } from '../api.ts';
import { href } from '../router.ts';
import { ActionForm, ErrorNote, formValues, Loading, StatusNote, useAction } from '../ui.tsx';
import { folderHref } from './folder-listing.tsx';

type Props = { project: Project; folder: FolderPage; onClose: () => void };

const nameOf = (path: string) => path || 'the owner’s root';

/**
 * The shares of the folder shown, in a modal dialog: those reaching it (its own and its
 * ancestors', each naming its folder), a form to add one, and the removal of its own. A share
 * reaches every file under the folder, those to come too; removing one ends every link handed
 * out for those files, so it asks first.
 */
export function FolderShareDialog({ project, folder, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [answer, setAnswer] = useState<FolderShares | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  const adding = useAction();
  const removing = useAction();
  const base = `/projects/${project.id}/folders`;
  useEffect(() => dialog.current?.showModal(), []);
  useEffect(() => {
    let current = true;
    const query = new URLSearchParams({ owner: folder.owner, path: folder.path });
    api<FolderShares>('GET', `${base}/shares?${query}`).then(
      (shares) => current && setAnswer(shares),
      (error) => current && setLoadError(error),
    );
    return () => {
      current = false;
    };
  }, [folder.owner, folder.path]);
  const whoOf = (share: FolderShare) =>
    share.scope === 'user'
      ? (answer?.people[share.identifier] ?? share.identifier)
      : `role ${share.identifier}`;
  const add = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { kind = 'email', identifier = '' } = formValues(event);
    return adding.run(async () => {
      const body = { owner: folder.owner, path: folder.path, [kind]: identifier };
      setAnswer(await api<FolderShares>('POST', `${base}/share`, body));
      setNote(`Shared ${nameOf(folder.path)} with ${kind === 'role' ? 'role ' : ''}${identifier}.`);
      form.reset();
    });
  };
  const remove = (share: FolderShare) => {
    const who = whoOf(share);
    const question = `Stop sharing ${nameOf(folder.path)} with ${who}? Every link handed out for a file under it stops working too.`;
    if (!confirm(question)) return;
    return removing.run(async () => {
      const body = { owner: folder.owner, path: folder.path, [share.scope]: share.identifier };
      setAnswer(await api<FolderShares>('POST', `${base}/unshare`, body));
      setNote(`Stopped sharing ${nameOf(folder.path)} with ${who}.`);
    });
  };
  return (
    <dialog ref={dialog} class="share-dialog" aria-labelledby="share-dialog-title" onClose={onClose}>
      <h2 id="share-dialog-title">Share {nameOf(folder.path)}</h2>
      <p class="hint">
        A share lets a user or a role read every file under the folder, those added later too.
      </p>
      {answer ? (
        <ShareList project={project} answer={answer} whoOf={whoOf} onRemove={remove} />
      ) : (
        <Loading error={loadError} />
      )}
      <ErrorNote error={removing.error} />
      <ActionForm action={adding} onSubmit={add} class="row" aria-label="Add a share">
        <label>
          Share with
          <select name="kind">
            <option value="email">user's email</option>
            <option value="role">role</option>
          </select>
        </label>
        <label>
          Email or role <input name="identifier" required />
        </label>
        <button type="submit" disabled={adding.busy}>
          Add share
        </button>
      </ActionForm>
      {note && <StatusNote text={note} />}
      <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}

type ListProps = {
  project: Project;
  answer: FolderShares;
  whoOf: (share: FolderShare) => string;
  onRemove: (share: FolderShare) => unknown;
};

/** Each share reaching the folder: whom it names, the folder it is on; only its own are removable here. */
function ShareList({ project, answer, whoOf, onRemove }: ListProps) {
  if (answer.shares.length === 0) return <p class="hint">Nobody else reads this folder through a share.</p>;
  return (
    <ul class="plain share-list" aria-label="Shares">
      {answer.shares.map((share) => (
        <li key={`${share.path}\n${share.scope}:${share.identifier}`}>
          <span>
            {share.scope === 'user' && answer.people[share.identifier] ? (
              <a
                href={href('projects', project.id, 'users', share.identifier)}
                title={`user id ${share.identifier}`}
              >
                {whoOf(share)}
              </a>
            ) : (
              whoOf(share)
            )}
          </span>
          {share.path === answer.path ? (
            <>
              <span class="hint">on this folder</span>
              <button
                type="button"
                class="danger"
                aria-label={`Remove the share with ${whoOf(share)}`}
                onClick={() => onRemove(share)}
              >
                Remove
              </button>
            </>
          ) : (
            <span class="hint">
              on <a href={folderHref(project, answer.owner, share.path)}>{nameOf(share.path)}</a>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
