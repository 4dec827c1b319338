import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type FileView, type FolderPage, formatBytes, type Project } from '../api.ts';
import {
  type Action,
  ActionForm,
  ErrorNote,
  formValues,
  Loading,
  Section,
  StatusNote,
  useAction,
} from '../ui.tsx';
import { FileDetail } from './file-detail.tsx';
import { FolderActions } from './folder-actions.tsx';
import {
  Breadcrumbs,
  FolderFiles,
  FolderTotals,
  folderHref,
  parentOf,
  Subfolders,
} from './folder-listing.tsx';
import { FolderShareDialog } from './folder-share-dialog.tsx';

/** A folder page and the address it answers (owner as written there, path). */
type Shown = FolderPage & { asked: string };

const keyOf = (owner: string, path: string) => `${owner}\n${path}`;

/**
 * One owner's folders (issue 36): breadcrumbs from their root, the subfolders with the files
 * and bytes of their whole subtrees, the files directly inside a page at a time, and the
 * folder's move, delete and share dialog. The folder is in the address (`#/projects/<p>/folders/<owner>/<path>`),
 * so a reload or a link opens it; a folder stays on screen until the next one is in whole.
 */
export function FoldersPage({ project, owner, path }: { project: Project; owner?: string; path: string }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [open, setOpen] = useState<FileView | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  const [sharing, setSharing] = useState(false);
  const choosing = useAction();
  const acting = useAction();
  const fetchPage = (who: string, where: string, cursor?: string) => {
    const query = new URLSearchParams({ owner: who, path: where, ...(cursor ? { cursor } : {}) });
    return api<FolderPage>('GET', `/projects/${project.id}/folders?${query}`);
  };
  const show = (who: string, where: string, page: FolderPage) => {
    setShown({ ...page, asked: keyOf(who, where) });
    setOpen(null);
    setSharing(false);
    setLoadError(null);
    location.hash = folderHref(project, who, where);
  };
  // A link followed (or the address typed): the folder it names, unless it is the one shown.
  useEffect(() => {
    if (!owner || shown?.asked === keyOf(owner, path)) return;
    let current = true;
    setNote('');
    fetchPage(owner, path).then(
      (page) => current && show(owner, path, page),
      (error) => current && setLoadError(error),
    );
    return () => {
      current = false;
    };
  }, [owner, path]);
  const choose = (event: Event) => {
    const { owner: typed = '' } = formValues(event);
    return choosing.run(async () => {
      show(typed, '', await fetchPage(typed, ''));
      setNote('');
    });
  };
  /** The folder, or the nearest one above it that still has files (the root always answers). */
  const openNearest = async (who: string, from: string) => {
    for (let where = from; ; where = parentOf(where)) {
      try {
        return show(who, where, await fetchPage(who, where));
      } catch (error) {
        if (where === '' || !(error instanceof ApiError && error.code === 'FOLDER_NOT_FOUND')) throw error;
      }
    }
  };
  if (!owner)
    return (
      <Section title="Folders">
        <OwnerForm action={choosing} onSubmit={choose} owner={owner} />
      </Section>
    );
  const moreFiles = (page: Shown) =>
    acting.run(async () => {
      const next = await fetchPage(owner, path, page.nextCursor!);
      setShown(
        (before) =>
          before && { ...before, files: [...before.files, ...next.files], nextCursor: next.nextCursor },
      );
    });
  const changed = (file: FileView | null, removedId?: string) => {
    setOpen(file);
    if (removedId) return void acting.run(() => openNearest(owner, path));
    setShown(
      (before) =>
        before && { ...before, files: before.files.map((kept) => (kept._id === file?._id ? file : kept)) },
    );
  };
  return (
    <>
      <Section title="Folders">
        <OwnerForm action={choosing} onSubmit={choose} owner={owner} />
        <ErrorNote error={shown && loadError} />
        {shown ? (
          <>
            <Breadcrumbs project={project} folder={shown} owner={owner} />
            <FolderTotals folder={shown} />
            {note && <StatusNote text={note} />}
            <FolderActions
              key={shown.asked}
              project={project}
              folder={shown}
              onShare={() => setSharing(true)}
              onMoved={async (to, moved) => {
                show(owner, to, await fetchPage(owner, to));
                setNote(`Moved ${moved} file${moved === 1 ? '' : 's'} from ${shown.path} to ${to}.`);
              }}
              onDeleted={async (deleted, bytes) => {
                await openNearest(owner, parentOf(shown.path));
                setNote(
                  `Deleted ${shown.path}: ${deleted} file${deleted === 1 ? '' : 's'}, ${formatBytes(bytes)}.`,
                );
              }}
            />
            {sharing && (
              <FolderShareDialog
                key={shown.asked}
                project={project}
                folder={shown}
                onClose={() => setSharing(false)}
              />
            )}
            <Subfolders project={project} folder={shown} owner={owner} />
            <FolderFiles project={project} folder={shown} open={open} onOpen={setOpen} />
            {shown.nextCursor && (
              <button type="button" disabled={acting.busy} onClick={() => moreFiles(shown)}>
                More files
              </button>
            )}
            <ErrorNote error={acting.error} />
          </>
        ) : (
          <Loading error={loadError} />
        )}
      </Section>
      {shown && open && <FileDetail project={project} file={open} onChange={changed} />}
    </>
  );
}

type OwnerFormProps = { action: Action; onSubmit: (event: Event) => unknown; owner?: string };

/** Whose folders: a folder is one owner's, so the view starts from an owner. */
function OwnerForm({ action, onSubmit, owner }: OwnerFormProps) {
  return (
    <ActionForm action={action} onSubmit={onSubmit} class="row">
      <label>
        Owner (email or user id) <input name="owner" defaultValue={owner} required />
      </label>
      <button type="submit" disabled={action.busy}>
        Browse folders
      </button>
      {!owner && <p class="hint">A folder is a path prefix of one owner's files: name whose to browse.</p>}
    </ActionForm>
  );
}
