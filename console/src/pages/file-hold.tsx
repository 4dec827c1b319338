import { useState } from 'preact/hooks';
import { api, type FileView, type Project } from '../api.ts';
import { ActionForm, ErrorNote, formValues, StatusNote, useAction } from '../ui.tsx';

type Props = { project: Project; file: FileView; onChange: (file: FileView) => void };

/**
 * A file's legal hold: shown with its reason, who and when, and lifted with a click; or put on
 * with a reason. While held, no one may delete, purge, replace or move the file.
 */
export function FileHold({ project, file, onChange }: Props) {
  const holding = useAction();
  const releasing = useAction();
  const [note, setNote] = useState('');
  const path = `/projects/${project.id}/files/${file._id}/hold`;
  const hold = (event: Event) => {
    const { reason } = formValues(event);
    return holding.run(async () => {
      onChange((await api<{ file: FileView }>('POST', path, { reason })).file);
      setNote('The file is on hold.');
    });
  };
  const release = () =>
    releasing.run(async () => {
      onChange((await api<{ file: FileView }>('DELETE', path)).file);
      setNote('The hold is lifted.');
    });
  return (
    <>
      <h3>Legal hold</h3>
      {file.hold ? (
        <div class="row">
          <p>
            On hold since{' '}
            <time dateTime={file.hold.heldAt}>{new Date(file.hold.heldAt).toLocaleString()}</time> (by{' '}
            <code>{file.hold.heldBy}</code>): {file.hold.reason}
          </p>
          <button type="button" disabled={releasing.busy} onClick={release}>
            Release hold
          </button>
        </div>
      ) : (
        <ActionForm action={holding} onSubmit={hold} class="row">
          <label>
            Hold reason <input name="reason" required maxLength={500} />
          </label>
          <button type="submit" disabled={holding.busy || !file.verified}>
            Hold file
          </button>
        </ActionForm>
      )}
      <ErrorNote error={releasing.error} />
      {note && <StatusNote text={note} />}
    </>
  );
}
