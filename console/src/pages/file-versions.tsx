import { useEffect, useState } from 'preact/hooks';
import { api, type FileVersion, type FileView, formatBytes, type Project } from '../api.ts';
import { DataTable, ErrorNote, Loading, StatusNote, useAction } from '../ui.tsx';

type Props = { project: Project; file: FileView; onChange: (file: FileView) => void };
type Listing = { versions: FileVersion[]; people: Record<string, string> };

/**
 * A file's versions, the current one first: restoring an earlier one makes its bytes current
 * again (a new version; nothing is copied), deleting one removes it and its bytes for good.
 * The list is read again whenever the file's content changes (its etag).
 */
export function FileVersions({ project, file, onChange }: Props) {
  const [listing, setListing] = useState<Listing | null>(null);
  const [note, setNote] = useState('');
  const loading = useAction();
  const action = useAction();
  const path = `/projects/${project.id}/files/${file._id}/versions`;
  const load = () => loading.run(async () => setListing(await api<Listing>('GET', path)));
  useEffect(() => setNote(''), [file._id]);
  useEffect(() => void load(), [file._id, file.etag]);
  const restore = (version: FileVersion) =>
    action.run(async () => {
      const { file: restored } = await api<{ file: FileView }>(
        'POST',
        `${path}/${encodeURIComponent(version.versionId)}/restore`,
      );
      onChange(restored);
      setNote(`Restored the version of ${new Date(version.createdAt).toLocaleString()}: it is current now.`);
    });
  const remove = (version: FileVersion) => {
    if (
      !confirm(
        `Delete the version of ${new Date(version.createdAt).toLocaleString()}? Its bytes go for good.`,
      )
    )
      return;
    return action.run(async () => {
      await api('DELETE', `${path}/${encodeURIComponent(version.versionId)}`);
      setNote('Version deleted.');
      await load();
    });
  };
  if (!listing) return <Loading error={loading.error} />;
  const by = (id: string) => listing.people[id] ?? (id.startsWith('operator:') ? 'an operator' : id);
  return (
    <>
      <h3>Versions</h3>
      <DataTable headers={['Version', 'Size', 'Created', 'By', 'Actions']}>
        {listing.versions.map((version) => {
          const when = new Date(version.createdAt).toLocaleString();
          return (
            <tr key={version.versionId} aria-current={version.current ? 'true' : undefined}>
              <td>
                <code>{version.versionId}</code>
                {version.current && <span class="badge">current</span>}
              </td>
              <td>{formatBytes(version.size)}</td>
              <td>
                <time dateTime={version.createdAt}>{when}</time>
              </td>
              <td title={version.createdBy}>{by(version.createdBy)}</td>
              <td class="actions">
                {!version.current && (
                  <>
                    <button
                      type="button"
                      aria-label={`Restore version of ${when}`}
                      disabled={action.busy || Boolean(file.hold)}
                      onClick={() => restore(version)}
                    >
                      Restore
                    </button>
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Delete version of ${when}`}
                      disabled={action.busy || Boolean(file.hold)}
                      onClick={() => remove(version)}
                    >
                      Delete
                    </button>
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </DataTable>
      {listing.versions.length === 0 && <p>No version yet: the upload is not verified.</p>}
      {file.hold && <p class="hint">The file is on hold: its versions cannot be restored or deleted.</p>}
      <ErrorNote error={action.error ?? loading.error} />
      {note && <StatusNote text={note} />}
    </>
  );
}
