import { type FileView, type FolderPage, formatBytes, type Project } from '../api.ts';
import { href } from '../router.ts';
import { DataTable } from '../ui.tsx';
import { FileThumbnail } from './file-thumbnail.tsx';

/** The address of an owner's folder: `#/projects/<p>/folders/<owner>[/<path>]` (the path one part). */
export const folderHref = (project: Project, owner: string, path: string) =>
  href('projects', project.id, 'folders', owner, ...(path ? [path] : []));

/** The folder a folder is in ('' for a top folder). */
export const parentOf = (path: string) => path.slice(0, path.slice(0, -1).lastIndexOf('/') + 1);

type ListingProps = { project: Project; folder: FolderPage; owner: string };

const countOf = (files: number) => `${files.toLocaleString()} file${files === 1 ? '' : 's'}`;

/** The way from the owner's root to the folder, each step a link but the folder itself. */
export function Breadcrumbs({ project, folder, owner }: ListingProps) {
  const segments = folder.path.split('/').slice(0, -1);
  const steps = [
    { label: folder.ownerEmail ?? folder.owner, path: '' },
    ...segments.map((segment, index) => ({
      label: segment,
      path: `${segments.slice(0, index + 1).join('/')}/`,
    })),
  ];
  return (
    <nav class="crumbs" aria-label="Folder path">
      <ol>
        {steps.map((step) => (
          <li key={step.path}>
            {step.path === folder.path ? (
              <span aria-current="page">{step.label}</span>
            ) : (
              <a href={folderHref(project, owner, step.path)}>{step.label}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The folder's totals: its whole subtree, kept by the service in each change's commit. */
export function FolderTotals({ folder }: { folder: FolderPage }) {
  return (
    <p class="hint">
      {countOf(folder.fileCount)}, {formatBytes(folder.totalBytes)} in this folder and its subfolders
    </p>
  );
}

/** The folder's direct subfolders, each with its own subtree's files and bytes. */
export function Subfolders({ project, folder, owner }: ListingProps) {
  return (
    <>
      {folder.folders.length > 0 && (
        <DataTable headers={['Folder', 'Files', 'Size', 'Last change']}>
          {folder.folders.map((entry) => (
            <tr key={entry.path}>
              <td>
                <a href={folderHref(project, owner, entry.path)}>{entry.name}/</a>
              </td>
              <td>{entry.fileCount.toLocaleString()}</td>
              <td>{formatBytes(entry.totalBytes)}</td>
              <td>{new Date(entry.updatedAt).toLocaleString()}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {folder.foldersTruncated && <p class="hint">The first 1,000 subfolders are shown.</p>}
    </>
  );
}

type FilesProps = {
  project: Project;
  folder: FolderPage;
  open: FileView | null;
  onOpen: (file: FileView) => void;
};

/** The files directly in the folder, by name, a page at a time. */
export function FolderFiles({ project, folder, open, onOpen }: FilesProps) {
  if (folder.files.length === 0) return <p>No file directly in this folder.</p>;
  return (
    <DataTable headers={['Image', 'Name', 'Size', 'Type', 'State']}>
      {folder.files.map((file) => (
        <tr key={file._id} aria-current={open?._id === file._id ? 'true' : undefined}>
          <td>
            <FileThumbnail project={project} file={file} />
          </td>
          <td>
            <button type="button" class="link" aria-label={file.filePath} onClick={() => onOpen(file)}>
              {file.filePath.slice(folder.path.length)}
            </button>
          </td>
          <td>{file.meta.ContentLength ? formatBytes(Number(file.meta.ContentLength)) : '—'}</td>
          <td>{file.meta.ContentType ?? '—'}</td>
          <td>{file.verified ? 'verified' : 'pending'}</td>
        </tr>
      ))}
    </DataTable>
  );
}
