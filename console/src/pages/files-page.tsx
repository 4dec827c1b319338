import { useEffect, useState } from 'preact/hooks';
import { api, type FileView, formatBytes, type Project, type User } from '../api.ts';
import { href } from '../router.ts';
import { DataTable, ErrorNote, formValues, Section, StatusNote, useAction } from '../ui.tsx';
import { FileDetail, Person } from './file-detail.tsx';
import { FileThumbnail } from './file-thumbnail.tsx';

type Page = { files: FileView[]; next: string | null };
type Filter = { owner?: string; prefix?: string };

/**
 * A project's files in path order, a page at a time (a cursor: as fast on the millionth file).
 * The open file is in the address (`#/projects/<p>/files/<fileId>`): a link to it opens it.
 */
export function FilesPage({ project, fileId }: { project: Project; fileId?: string }) {
  const [filter, setFilter] = useState<Filter>({});
  const [page, setPage] = useState<Page>({ files: [], next: null });
  const [open, setOpen] = useState<FileView | null>(null);
  const action = useAction();
  const opening = useAction();
  const path = `/projects/${project.id}/files`;
  useEffect(() => {
    if (!fileId) return setOpen(null);
    if (open?._id === fileId) return;
    void opening.run(async () => setOpen((await api<{ file: FileView }>('GET', `${path}/${fileId}`)).file));
  }, [fileId]);
  const show = (file: FileView | null) => {
    setOpen(file);
    location.hash = file
      ? href('projects', project.id, 'files', file._id)
      : href('projects', project.id, 'files');
  };
  const load = (wanted: Filter, cursor?: string) =>
    action.run(async () => {
      const query = new URLSearchParams({ ...wanted, ...(cursor ? { cursor } : {}) }).toString();
      const answer = await api<Page>('GET', `${path}${query ? `?${query}` : ''}`);
      setPage((before) =>
        cursor ? { files: [...before.files, ...answer.files], next: answer.next } : answer,
      );
    });
  useEffect(() => void load({}), [project.id]);
  const applyFilter = (event: Event) => {
    const { owner, prefix } = formValues(event);
    const wanted = { ...(owner ? { owner } : {}), ...(prefix ? { prefix } : {}) };
    setFilter(wanted);
    return load(wanted);
  };
  const changed = (file: FileView | null, removedId?: string) => {
    show(file);
    setPage((before) => ({
      ...before,
      files: before.files
        .filter((kept) => kept._id !== removedId)
        .map((kept) => (file && kept._id === file._id ? file : kept)),
    }));
  };
  return (
    <>
      <Upload project={project} onUploaded={() => load(filter)} />
      <Section title="Files">
        <form onSubmit={applyFilter} class="row">
          <label>
            Owner (email or user id) <input name="owner" defaultValue={filter.owner} />
          </label>
          <label>
            Path prefix <input name="prefix" defaultValue={filter.prefix} />
          </label>
          <button type="submit">Filter</button>
        </form>
        <ErrorNote error={action.error} />
        <DataTable headers={['Image', 'Path', 'Owner', 'Size', 'Type', 'State']}>
          {page.files.map((file) => (
            <tr key={file._id} aria-current={open?._id === file._id ? 'true' : undefined}>
              <td>
                <FileThumbnail project={project} file={file} />
              </td>
              <td>
                <button type="button" class="link" onClick={() => show(file)}>
                  {file.filePath}
                </button>
              </td>
              <td>
                <Person file={file} id={file.creator} />
              </td>
              <td>{file.meta.ContentLength ? formatBytes(Number(file.meta.ContentLength)) : '—'}</td>
              <td>{file.meta.ContentType ?? '—'}</td>
              <td>{file.verified ? 'verified' : 'pending'}</td>
            </tr>
          ))}
        </DataTable>
        {page.files.length === 0 && <p>No file here.</p>}
        {page.next && (
          <button type="button" onClick={() => load(filter, page.next!)}>
            More files
          </button>
        )}
      </Section>
      <ErrorNote error={opening.error} />
      {open && <FileDetail project={project} file={open} onChange={changed} />}
    </>
  );
}

/** Uploads into a user's files (found by email), as their own upload would: request, PUT, verify. */
function Upload({ project, onUploaded }: { project: Project; onUploaded: () => void }) {
  const action = useAction();
  const [done, setDone] = useState('');
  const submit = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { owner, filePath } = formValues(event);
    const file = (form.elements.namedItem('file') as HTMLInputElement).files?.[0];
    return action.run(async () => {
      if (!file) throw new Error('Choose a file to upload');
      const found = await api<{ users: User[] }>(
        'GET',
        `/projects/${project.id}/users?email=${encodeURIComponent(owner ?? '')}`,
      );
      const user = found.users[0];
      if (!user) throw new Error(`No user ${owner} in this project`);
      const contentType = file.type || 'application/octet-stream';
      const requested = await api<{ fileId: string; putFileUrl: string }>(
        'POST',
        `/projects/${project.id}/files`,
        {
          ownerId: user.userId,
          filePath: filePath || file.name,
          contentType,
          contentLength: file.size,
        },
      );
      const put = await fetch(requested.putFileUrl, {
        method: 'PUT',
        body: file,
        headers: { 'content-type': contentType },
      });
      if (!put.ok)
        throw new Error(
          `The upload failed (${put.status}): ${(await put.json().catch(() => ({}))).message ?? ''}`,
        );
      await api('POST', `/projects/${project.id}/files/${requested.fileId}/verify`, {
        etag: put.headers.get('etag'),
      });
      setDone(`Uploaded ${filePath || file.name} for ${user.email}.`);
      form.reset();
      onUploaded();
    });
  };
  return (
    <Section title="Upload">
      <form onSubmit={submit} class="grid-form">
        <label>
          Owner email <input name="owner" type="email" required />
        </label>
        <label>
          File <input name="file" type="file" required />
        </label>
        <label>
          Path (optional: the file's name) <input name="filePath" placeholder="folder/name.ext" />
        </label>
        <ErrorNote error={action.error} />
        {done && <StatusNote text={done} />}
        <button type="submit" disabled={action.busy}>
          Upload file
        </button>
      </form>
    </Section>
  );
}
