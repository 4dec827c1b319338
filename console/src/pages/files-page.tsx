import { useEffect, useState } from 'preact/hooks';
import { api, type FileView, formatBytes, type Project } from '../api.ts';
import { downloadZip } from '../download-zip.ts';
import { DropZone } from '../drop-zone.tsx';
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
import { uploadFiles } from '../upload-file.ts';
import { FileDetail, Person } from './file-detail.tsx';
import { FileSearch, type SearchTerms } from './file-search.tsx';
import { FileThumbnail } from './file-thumbnail.tsx';
import { UploadForm } from './upload-form.tsx';

type Page = { files: FileView[]; next: string | null };
/** The listing shown: an owner's or a prefix's files in path order, or (name, type) a search. */
type Filter = { owner?: string; prefix?: string } & SearchTerms;

/**
 * A project's files in path order, a page at a time (a cursor: as fast on the millionth file).
 * The open file is in the address (`#/projects/<p>/files/<fileId>`): a link to it opens it.
 * Files dropped on the list are uploaded for the owner named in the upload form. The search box
 * (issue 40) finds by name and type across owners; files ticked in the list download as one zip.
 */
export function FilesPage({ project, fileId }: { project: Project; fileId?: string }) {
  const [filter, setFilter] = useState<Filter>({});
  const [page, setPage] = useState<Page | null>(null);
  const [open, setOpen] = useState<FileView | null>(null);
  const [owner, setOwner] = useState('');
  const [dropped, setDropped] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [zipNote, setZipNote] = useState('');
  const listing = useAction();
  const searching = useAction();
  const zipping = useAction();
  const filtering = useAction();
  const opening = useAction();
  const dropping = useAction();
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
  const load = async (wanted: Filter, cursor?: string) => {
    const query = new URLSearchParams({ ...wanted, ...(cursor ? { cursor } : {}) }).toString();
    const search = wanted.name !== undefined || wanted.contentType !== undefined;
    const answer = await api<Page>('GET', `${path}${search ? '/search' : ''}${query ? `?${query}` : ''}`);
    if (!cursor) setSelected(new Set());
    setPage((before) =>
      cursor && before ? { files: [...before.files, ...answer.files], next: answer.next } : answer,
    );
  };
  useEffect(() => void listing.run(() => load({})), [project.id]);
  const applyFilter = (event: Event) => {
    const { owner, prefix } = formValues(event);
    const wanted = { ...(owner ? { owner } : {}), ...(prefix ? { prefix } : {}) };
    return filtering.run(async () => {
      await load(wanted);
      setFilter(wanted);
    });
  };
  // A search keeps the path prefix of the listing and looks across owners (the admin's view).
  const search = async (terms: SearchTerms) => {
    const wanted = { ...(filter.prefix ? { prefix: filter.prefix } : {}), ...terms };
    await load(wanted);
    setFilter(wanted);
  };
  const clearSearch = () => search({});
  const toggle = (fileId: string) =>
    setSelected((before) => {
      const after = new Set(before);
      if (!after.delete(fileId)) after.add(fileId);
      return after;
    });
  const zipSelected = () =>
    zipping.run(async () => {
      setZipNote('');
      setZipNote(await downloadZip(project, { fileIds: [...selected] }));
    });
  const drop = (files: File[]) =>
    dropping.run(async () => {
      setDropped('');
      if (!owner) throw new Error('Name the owner in the upload form first: dropped files are theirs.');
      const user = await uploadFiles(
        project,
        owner,
        files.map((file) => ({ file })),
      );
      setDropped(`Uploaded ${files.map((file) => file.name).join(', ')} for ${user.email}.`);
      await load(filter);
    });
  const changed = (file: FileView | null, removedId?: string) => {
    show(file);
    setPage(
      (before) =>
        before && {
          ...before,
          files: before.files
            .filter((kept) => kept._id !== removedId)
            .map((kept) => (file && kept._id === file._id ? file : kept)),
        },
    );
  };
  return (
    <>
      <UploadForm
        project={project}
        owner={owner}
        onOwner={setOwner}
        onUploaded={() => listing.run(() => load(filter))}
      />
      <Section title="Files">
        <FileSearch action={searching} terms={filter} onSearch={search} onClear={clearSearch} />
        <ActionForm action={filtering} onSubmit={applyFilter} class="row">
          <label>
            Owner (email or user id) <input name="owner" defaultValue={filter.owner} />
          </label>
          <label>
            Path prefix <input name="prefix" defaultValue={filter.prefix} />
          </label>
          <button type="submit" disabled={filtering.busy}>
            Filter
          </button>
        </ActionForm>
        <ErrorNote error={dropping.error} />
        {dropped && <StatusNote text={dropped} />}
        <div class="row selection-actions">
          <button type="button" disabled={selected.size === 0 || zipping.busy} onClick={zipSelected}>
            Download selected as zip{selected.size > 0 ? ` (${selected.size})` : ''}
          </button>
          {zipNote && <StatusNote text={zipNote} />}
          <ErrorNote error={zipping.error} />
        </div>
        {page ? (
          <FileList
            project={project}
            page={page}
            open={open}
            onOpen={show}
            selected={selected}
            onToggle={toggle}
            onDrop={drop}
            dropLabel={owner ? `Drop to upload for ${owner}` : 'Name the owner in the upload form first'}
          />
        ) : (
          <Loading error={listing.error} />
        )}
        {page?.next && (
          <button type="button" onClick={() => listing.run(() => load(filter, page.next!))}>
            More files
          </button>
        )}
        {page && <ErrorNote error={listing.error} />}
      </Section>
      <ErrorNote error={opening.error} />
      {/* After the list is in, so the list's arrival never pushes an open file down. */}
      {page && open && <FileDetail project={project} file={open} onChange={changed} />}
    </>
  );
}

type ListProps = {
  project: Project;
  page: Page;
  open: FileView | null;
  onOpen: (file: FileView) => void;
  selected: ReadonlySet<string>;
  onToggle: (fileId: string) => void;
  onDrop: (files: File[]) => void;
  dropLabel: string;
};

function FileList({ project, page, open, onOpen, selected, onToggle, onDrop, dropLabel }: ListProps) {
  return (
    <DropZone label={dropLabel} name="File list (drop files here to upload them)" onFiles={onDrop}>
      <DataTable headers={['Select', 'Image', 'Path', 'Owner', 'Size', 'Type', 'State']}>
        {page.files.map((file) => (
          <tr key={file._id} aria-current={open?._id === file._id ? 'true' : undefined}>
            <td>
              <input
                type="checkbox"
                aria-label={`Select ${file.filePath}`}
                checked={selected.has(file._id)}
                onChange={() => onToggle(file._id)}
              />
            </td>
            <td>
              <FileThumbnail project={project} file={file} />
            </td>
            <td>
              <button type="button" class="link" onClick={() => onOpen(file)}>
                {file.filePath}
              </button>
            </td>
            <td>
              <Person project={project} file={file} id={file.creator} />
            </td>
            <td>{file.meta.ContentLength ? formatBytes(Number(file.meta.ContentLength)) : '—'}</td>
            <td>{file.meta.ContentType ?? '—'}</td>
            <td>{file.verified ? 'verified' : 'pending'}</td>
          </tr>
        ))}
      </DataTable>
      {page.files.length === 0 && <p>No file here.</p>}
    </DropZone>
  );
}
