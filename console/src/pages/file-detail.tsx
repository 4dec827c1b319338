import { useEffect, useState } from 'preact/hooks';
import {
  type AclEntry,
  api,
  contentUrl,
  type FileView,
  formatBytes,
  mediaTypeOf,
  type Project,
  personOf,
} from '../api.ts';
import { href } from '../router.ts';
import { ActionForm, ErrorNote, formValues, Section, StatusNote, useAction } from '../ui.tsx';
import { FileHold } from './file-hold.tsx';
import { PlaceholderThumbnail, useImageSummary } from './file-thumbnail.tsx';
import { FileVersions } from './file-versions.tsx';
import { folderHref } from './folder-listing.tsx';
import { MediaFacts } from './media-facts.tsx';

/** The folder a file is directly in: its path up to the last `/` ('' at the owner's root). */
const folderOf = (filePath: string) => filePath.slice(0, filePath.lastIndexOf('/') + 1);

type Props = {
  project: Project;
  file: FileView;
  onChange: (file: FileView | null, removedId?: string) => void;
};

/**
 * One file: its record and ACL, a preview, download, share and unshare, revoke links, delete,
 * its legal hold and its versions (issue 38).
 */
export function FileDetail({ project, file, onChange }: Props) {
  const action = useAction();
  const sharing = useAction();
  const [note, setNote] = useState('');
  const path = `/projects/${project.id}/files/${file._id}`;
  useEffect(() => setNote(''), [file._id]);
  const share = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { kind, identifier } = formValues(event);
    return sharing.run(async () => {
      const body =
        kind === 'role'
          ? { role: identifier }
          : kind === 'email'
            ? { email: identifier }
            : { userId: identifier };
      onChange((await api<{ file: FileView }>('POST', `${path}/shares`, body)).file);
      setNote(`Shared with ${kind} ${identifier}.`);
      form.reset();
    });
  };
  const unshare = (entry: AclEntry) =>
    action.run(async () => {
      const body = entry.scope === 'role' ? { role: entry.identifier } : { userId: entry.identifier };
      onChange((await api<{ file: FileView }>('DELETE', `${path}/shares`, body)).file);
      setNote(`Unshared from ${entry.scope} ${entry.identifier}.`);
    });
  const revoke = () => {
    if (!confirm(`Revoke every link handed out for ${file.filePath}? Downloads in progress stop too.`))
      return;
    return action.run(async () => {
      await api('POST', `${path}/revoke-links`);
      setNote('Every link handed out for this file stopped working.');
    });
  };
  const remove = () => {
    const days = Number(project.settings.trashRetentionDays ?? 0);
    const outcome =
      days > 0 ? `It goes to the trash for ${days} day${days === 1 ? '' : 's'}.` : 'Its bytes go too.';
    if (!confirm(`Delete ${file.filePath}? ${outcome}`)) return;
    return action.run(async () => {
      await api('DELETE', path);
      onChange(null, file._id);
    });
  };
  const size = file.meta.ContentLength ? Number(file.meta.ContentLength) : null;
  const summary = useImageSummary(project, file);
  return (
    <Section title={`File ${file.filePath}`}>
      {file.quarantine && (
        <p role="alert" class="error">
          Quarantined: a scan found <code>{file.quarantine.signature}</code> in it; no one can read its bytes.
          Release or delete it on the <a href={href('projects', project.id, 'quarantine')}>Quarantine</a> tab.
        </p>
      )}
      <PlaceholderThumbnail project={project} file={file} summary={summary} />
      <dl class="record">
        <dt>File id</dt>
        <dd>
          <code>{file._id}</code>
        </dd>
        <dt>Owner</dt>
        <dd>
          <Person project={project} file={file} id={file.creator} />
        </dd>
        <dt>Folder</dt>
        <dd>
          <a href={folderHref(project, file.creator, folderOf(file.filePath))}>
            {folderOf(file.filePath) || 'the owner’s root'}
          </a>
        </dd>
        <dt>Type</dt>
        <dd>{file.meta.ContentType ?? '—'}</dd>
        <dt>Size</dt>
        <dd>{size === null ? '—' : formatBytes(size)}</dd>
        <MediaFacts file={file} summary={summary} />
        <dt>State</dt>
        <dd>{file.verified ? 'verified' : 'pending upload'}</dd>
        <dt>Malware scan</dt>
        <dd>{describeScan(file.meta.scan)}</dd>
        <dt>Visible to</dt>
        <dd>{file.permissionScope === '*' ? 'every user of the project' : 'its ACL'}</dd>
        <dt>Created</dt>
        <dd>{new Date(file.__createdAt).toLocaleString()}</dd>
        {file.customData !== undefined && (
          <>
            <dt>Custom data</dt>
            <dd>
              <code>{JSON.stringify(file.customData)}</code>
            </dd>
          </>
        )}
      </dl>
      <h3>Access list</h3>
      <ul class="plain" aria-label="Access list">
        {file.acl.map((entry) => (
          <li key={`${entry.scope}:${entry.identifier}`}>
            {entry.scope === 'user' ? (
              <>
                user <Person project={project} file={file} id={entry.identifier} />
              </>
            ) : (
              <>
                {entry.scope} <code>{entry.identifier}</code>
              </>
            )}{' '}
            {!(entry.scope === 'user' && entry.identifier === file.creator) && (
              <button
                type="button"
                aria-label={`Unshare from ${entry.scope} ${entry.scope === 'user' ? personOf(file, entry.identifier).label : entry.identifier}`}
                onClick={() => unshare(entry)}
              >
                Unshare
              </button>
            )}
          </li>
        ))}
      </ul>
      <ActionForm action={sharing} onSubmit={share} class="row">
        <label>
          Share with
          <select name="kind">
            <option value="email">user's email</option>
            <option value="user">user id</option>
            <option value="role">role</option>
          </select>
        </label>
        <label>
          Email, user id or role <input name="identifier" required />
        </label>
        <button type="submit" disabled={sharing.busy}>
          Share
        </button>
      </ActionForm>
      <div class="row">
        {file.verified && (
          <a class="button" href={contentUrl(project, file, true)} download>
            Download
          </a>
        )}
        <button type="button" class="danger" onClick={revoke}>
          Revoke links
        </button>
        <button type="button" class="danger" onClick={remove}>
          Delete file
        </button>
      </div>
      <ErrorNote error={action.error} />
      {note && <StatusNote text={note} />}
      {file.verified && <FileHold project={project} file={file} onChange={(changed) => onChange(changed)} />}
      {file.verified && <Preview project={project} file={file} />}
      {/* Last: the list arrives after the record, and moves nothing already on screen. */}
      {file.verified && (
        <FileVersions project={project} file={file} onChange={(changed) => onChange(changed)} />
      )}
    </Section>
  );
}

/** The first 64 KiB a text preview shows. */
const textPreviewBytes = 64 * 1024;

/**
 * Pictures in an <img> (no script runs in one), text as text (never as HTML), PDFs in a frame;
 * the content route serves these inline under a policy that lets nothing in them run.
 */
function Preview({ project, file }: { project: Project; file: FileView }) {
  const type = mediaTypeOf(file);
  const url = contentUrl(project, file);
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    setText(null);
    if (type !== 'text/plain') return;
    fetch(url, { headers: { range: `bytes=0-${textPreviewBytes - 1}` } })
      .then((response) => response.text())
      .then(setText, () => setText('(the preview could not be read)'));
  }, [url, type]);
  if (/^image\/(png|jpeg|gif|webp|avif)$/.test(type))
    return (
      <figure>
        <img src={url} alt={`Preview of ${file.filePath}`} class="preview" />
      </figure>
    );
  if (type === 'text/plain')
    return (
      <figure aria-label={`Preview of ${file.filePath}`}>
        <pre class="preview">{text ?? 'Loading…'}</pre>
      </figure>
    );
  if (type === 'application/pdf')
    return <iframe src={url} title={`Preview of ${file.filePath}`} class="preview" />;
  return <p class="hint">No preview for {type || 'this type'}: download it instead.</p>;
}

/** A person named by a record: their email, the account id on hover, a link to their page. */
export function Person({ project, file, id }: { project: Project; file: FileView; id: string }) {
  const { label } = personOf(file, id);
  // An account gone (no email known) has no page to open.
  if (!file.people?.[id])
    return (
      <span class="person" title={`user id ${id}`}>
        {label}
      </span>
    );
  return (
    <a class="person" href={href('projects', project.id, 'users', id)} title={`user id ${id}`}>
      {label}
    </a>
  );
}

/** `meta.scan` in a line (issue 42): the verdict, by which engine and signatures, and when. */
function describeScan(scan: FileView['meta']['scan']): string {
  if (!scan) return 'not scanned';
  const when = new Date(scan.scannedAt).toLocaleString();
  if (scan.result === 'skipped')
    return `skipped (${scan.reason === 'oversize' ? 'larger than the scanner takes' : 'scanner unavailable'}), ${when}`;
  return `clean: ${scan.engine ?? 'scanner'}${scan.signatures && scan.signatures !== 'unknown' ? `, signatures ${scan.signatures}` : ''}, ${when}`;
}
