import { useEffect, useState } from 'preact/hooks';
import { api, type FileView, formatBytes, type Project, type TrashedFileView } from '../api.ts';
import { href } from '../router.ts';
import {
  ActionForm,
  DataTable,
  ErrorNote,
  formValues,
  Loading,
  Section,
  StatusNote,
  useAction,
} from '../ui.tsx';
import { Person } from './file-detail.tsx';

type Page = { items: TrashedFileView[]; nextCursor: string | null };

/**
 * The project's trash (issue 38): every owner's deleted files, most recently trashed first, a
 * page at a time, or one owner's. Each is restored (at its path or another) or purged for good;
 * one owner's whole trash is emptied after a confirmation naming what goes.
 */
export function TrashPage({ project }: { project: Project }) {
  const [owner, setOwner] = useState('');
  const [page, setPage] = useState<Page | null>(null);
  const [restoring, setRestoring] = useState<TrashedFileView | null>(null);
  const [note, setNote] = useState('');
  /** The file last restored: the note links to it. */
  const [back, setBack] = useState<FileView | null>(null);
  const listing = useAction();
  const filtering = useAction();
  const action = useAction();
  const moving = useAction();
  const base = `/projects/${project.id}/trash`;
  const load = async (wanted: string, cursor?: string) => {
    const query = new URLSearchParams({ ...(wanted && { owner: wanted }), ...(cursor && { cursor }) });
    const answer = await api<Page>('GET', `${base}${query.size ? `?${query}` : ''}`);
    setPage((before) =>
      cursor && before
        ? { items: [...before.items, ...answer.items], nextCursor: answer.nextCursor }
        : answer,
    );
  };
  useEffect(() => void listing.run(() => load('')), [project.id]);
  const drop = (id: string) =>
    setPage((before) => before && { ...before, items: before.items.filter((item) => item._id !== id) });
  const filter = (event: Event) => {
    const wanted = (formValues(event).owner ?? '').trim();
    return filtering.run(async () => {
      await load(wanted);
      setOwner(wanted);
      setNote('');
      setBack(null);
    });
  };
  const restored = (file: FileView) => {
    drop(file._id);
    setRestoring(null);
    setNote('');
    setBack(file);
  };
  const restore = (item: TrashedFileView) =>
    action.run(async () =>
      restored((await api<{ file: FileView }>('POST', `${base}/${item._id}/restore`)).file),
    );
  const restoreAt = (event: Event) => {
    const { filePath } = formValues(event);
    return moving.run(async () => {
      const answer = await api<{ file: FileView }>('POST', `${base}/${restoring!._id}/restore`, { filePath });
      restored(answer.file);
    });
  };
  const purge = (item: TrashedFileView) => {
    if (
      !confirm(`Purge ${item.filePath} for good? Its bytes and versions (${formatBytes(item.heldBytes)}) go.`)
    )
      return;
    return action.run(async () => {
      await api('DELETE', `${base}/${item._id}`);
      drop(item._id);
      setNote(`Purged ${item.filePath}.`);
    });
  };
  const empty = () => {
    if (!confirm(`Empty the trash of ${owner}? Every file in it goes for good (held files stay).`)) return;
    return action.run(async () => {
      const { purged } = await api<{ purged: number }>('POST', `${base}/empty`, { owner });
      setNote(`Purged ${purged} file${purged === 1 ? '' : 's'} from the trash of ${owner}.`);
      await load(owner);
    });
  };
  const days = Number(project.settings.trashRetentionDays ?? 0);
  return (
    <Section title="Trash">
      <p class="hint">
        {days > 0
          ? `Deleted files stay here ${days} day${days === 1 ? '' : 's'}, then are purged.`
          : 'The trash is off for this project (trashRetentionDays is 0): deletes are final.'}
      </p>
      <ActionForm action={filtering} onSubmit={filter} class="row">
        <label>
          Owner (email or user id) <input name="owner" defaultValue={owner} />
        </label>
        <button type="submit" disabled={filtering.busy}>
          Filter
        </button>
        {owner && (
          <button type="button" class="danger" disabled={action.busy} onClick={empty}>
            Empty trash of {owner}
          </button>
        )}
      </ActionForm>
      {!page && <Loading error={listing.error} />}
      {page && page.items.length === 0 && <p>The trash is empty.</p>}
      {page && page.items.length > 0 && (
        <DataTable headers={['Path', 'Owner', 'Size', 'Trashed', 'Purged on', 'Actions']}>
          {page.items.map((item) => (
            <tr key={item._id} aria-current={restoring?._id === item._id ? 'true' : undefined}>
              <td>{item.filePath}</td>
              <td>
                <Person project={project} file={item} id={item.creator} />
              </td>
              <td>{formatBytes(item.heldBytes)}</td>
              <td>
                <time dateTime={item.trashedAt}>{new Date(item.trashedAt).toLocaleString()}</time>
              </td>
              <td>
                <time dateTime={item.purgeAt}>{new Date(item.purgeAt).toLocaleDateString()}</time>
              </td>
              <td class="actions">
                <button
                  type="button"
                  aria-label={`Restore ${item.filePath}`}
                  disabled={action.busy}
                  onClick={() => restore(item)}
                >
                  Restore
                </button>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Restore ${item.filePath} at another path`}
                  onClick={() => setRestoring(item)}
                >
                  Restore at…
                </button>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Purge ${item.filePath}`}
                  disabled={action.busy}
                  onClick={() => purge(item)}
                >
                  Purge
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {restoring && (
        <ActionForm
          action={moving}
          onSubmit={restoreAt}
          class="row"
          aria-label={`Restore ${restoring.filePath}`}
        >
          <label>
            Restore {restoring.filePath} at{' '}
            <input name="filePath" defaultValue={restoring.filePath} required />
          </label>
          <button type="submit" disabled={moving.busy}>
            Restore here
          </button>
          <button type="button" class="secondary" onClick={() => setRestoring(null)}>
            Cancel
          </button>
        </ActionForm>
      )}
      {page?.nextCursor && (
        <button
          type="button"
          disabled={listing.busy}
          onClick={() => listing.run(() => load(owner, page.nextCursor!))}
        >
          More trashed files
        </button>
      )}
      <ErrorNote error={action.error} />
      {page && <ErrorNote error={listing.error} />}
      {note && <StatusNote text={note} />}
      {back && !note && (
        <p role="status" class="status">
          Restored <a href={href('projects', project.id, 'files', back._id)}>{back.filePath}</a>.
        </p>
      )}
    </Section>
  );
}
