import { useEffect, useState } from 'preact/hooks';
import { api, type FileView, formatBytes, type Project } from '../api.ts';
import { href } from '../router.ts';
import { DataTable, ErrorNote, Loading, Section, StatusNote, useAction } from '../ui.tsx';
import { Person } from './file-detail.tsx';

type Page = { files: FileView[]; page: number; hasMore: boolean };

/**
 * The project's quarantined files (issue 42): what `coffer scan` found malware in, the latest
 * first. No one can read their bytes; an operator releases one (a false alarm: readable again)
 * or deletes it (to its owner's trash, or for good with the trash off).
 */
export function QuarantinePage({ project }: { project: Project }) {
  const [page, setPage] = useState<Page | null>(null);
  const [note, setNote] = useState('');
  const listing = useAction();
  const action = useAction();
  const base = `/projects/${project.id}`;
  const load = async (number: number) => {
    const answer = await api<Page>('GET', `${base}/quarantine?page=${number}`);
    setPage((before) =>
      number > 1 && before ? { ...answer, files: [...before.files, ...answer.files] } : answer,
    );
  };
  useEffect(() => void listing.run(() => load(1)), [project.id]);
  const drop = (id: string) =>
    setPage((before) => before && { ...before, files: before.files.filter((file) => file._id !== id) });
  const release = (file: FileView) => {
    if (!confirm(`Release ${file.filePath}? Anyone who may read it can download it again.`)) return;
    return action.run(async () => {
      await api('POST', `${base}/files/${file._id}/quarantine/release`);
      drop(file._id);
      setNote(`Released ${file.filePath}.`);
    });
  };
  const remove = (file: FileView) => {
    if (!confirm(`Delete ${file.filePath}?`)) return;
    return action.run(async () => {
      await api('DELETE', `${base}/files/${file._id}`);
      drop(file._id);
      setNote(`Deleted ${file.filePath}.`);
    });
  };
  return (
    <Section title="Quarantined files">
      <p class="hint">
        A re-scan (<code>coffer scan</code>) found malware in these files: their bytes answer 451 to everyone
        until released or deleted.
      </p>
      {!page && <Loading error={listing.error} />}
      {page && page.files.length === 0 && <p>No file is quarantined.</p>}
      {page && page.files.length > 0 && (
        <DataTable headers={['Path', 'Owner', 'Size', 'Found', 'Quarantined', 'Actions']}>
          {page.files.map((file) => (
            <tr key={file._id}>
              <td>
                <a href={href('projects', project.id, 'files', file._id)}>{file.filePath}</a>
              </td>
              <td>
                <Person project={project} file={file} id={file.creator} />
              </td>
              <td>{formatBytes(Number(file.meta.ContentLength ?? 0))}</td>
              <td>
                <code>{file.quarantine?.signature}</code>
              </td>
              <td>
                <time dateTime={file.quarantine?.quarantinedAt}>
                  {file.quarantine && new Date(file.quarantine.quarantinedAt).toLocaleString()}
                </time>
              </td>
              <td class="actions">
                <button
                  type="button"
                  aria-label={`Release ${file.filePath}`}
                  disabled={action.busy}
                  onClick={() => release(file)}
                >
                  Release
                </button>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Delete ${file.filePath}`}
                  disabled={action.busy}
                  onClick={() => remove(file)}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {page?.hasMore && (
        <button type="button" disabled={listing.busy} onClick={() => listing.run(() => load(page.page + 1))}>
          More quarantined files
        </button>
      )}
      <ErrorNote error={action.error} />
      {note && <StatusNote text={note} />}
    </Section>
  );
}
