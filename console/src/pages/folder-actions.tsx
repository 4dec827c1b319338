import { useState } from 'preact/hooks';
import { api, type FolderPage, formatBytes, type Project } from '../api.ts';
import { downloadZip } from '../download-zip.ts';
import { ActionForm, ErrorNote, formValues, StatusNote, useAction } from '../ui.tsx';

type Props = {
  project: Project;
  folder: FolderPage;
  onMoved: (to: string, moved: number) => Promise<void>;
  onDeleted: (deleted: number, bytes: number) => Promise<void>;
  /** Opens the folder's share dialog. */
  onShare: () => void;
};

/** A folder as people name it: the closing `/` the service asks for is added when missing. */
const toFolderPath = (text: string) => (text.endsWith('/') ? text : `${text}/`);

/**
 * Moving (renaming) and deleting the folder shown, each one call that changes every file under
 * it or none, sharing it, and downloading its whole subtree as one zip (issue 40). Deleting asks first, naming what goes; a refused move says why
 * beside its field. The root has no move or delete (the API has none) but may be shared.
 */
export function FolderActions({ project, folder, onMoved, onDeleted, onShare }: Props) {
  const moving = useAction();
  const deleting = useAction();
  const zipping = useAction();
  const [zipNote, setZipNote] = useState('');
  const zip = () =>
    zipping.run(async () => {
      setZipNote('');
      setZipNote(await downloadZip(project, { folder: { owner: folder.owner, path: folder.path } }));
    });
  const base = `/projects/${project.id}/folders`;
  const move = (event: Event) => {
    const to = toFolderPath(formValues(event).to ?? '');
    return moving.run(async () => {
      const body = { owner: folder.owner, from: folder.path, to };
      const { moved } = await api<{ moved: number }>('POST', `${base}/move`, body);
      await onMoved(to, moved);
    });
  };
  const remove = () => {
    const what = `${folder.fileCount} file${folder.fileCount === 1 ? '' : 's'}, ${formatBytes(folder.totalBytes)}`;
    const days = Number(project.settings.trashRetentionDays ?? 0);
    const outcome =
      days > 0 ? `They go to the trash for ${days} day${days === 1 ? '' : 's'}.` : 'Their bytes go too.';
    if (!confirm(`Delete the folder ${folder.path} and everything in it (${what})? ${outcome}`)) return;
    return deleting.run(async () => {
      const body = { owner: folder.owner, path: folder.path };
      const { deleted, bytes } = await api<{ deleted: number; bytes: number }>(
        'POST',
        `${base}/delete`,
        body,
      );
      await onDeleted(deleted, bytes);
    });
  };
  return (
    <div class="folder-actions">
      <button type="button" class="secondary" onClick={onShare}>
        Share folder
      </button>
      <button type="button" class="secondary" disabled={zipping.busy} onClick={zip}>
        Download as zip
      </button>
      {zipNote && <StatusNote text={zipNote} />}
      <ErrorNote error={zipping.error} />
      {folder.path !== '' && (
        <>
          <ActionForm action={moving} onSubmit={move} class="row">
            <label>
              Move or rename to <input name="to" defaultValue={folder.path} required />
            </label>
            <button type="submit" disabled={moving.busy}>
              Move folder
            </button>
          </ActionForm>
          <button type="button" class="danger" disabled={deleting.busy} onClick={remove}>
            Delete folder
          </button>
          <ErrorNote error={deleting.error} />
        </>
      )}
    </div>
  );
}
