import { api, formatBytes, type Project } from './api.ts';

/** What the console zips: files by id (named by their paths), or one owner's folder. */
export type ZipSelection = { fileIds: string[] } | { folder: { owner: string; path: string } };

type ZipLink = { url: string; fileCount: number; archiveBytes: number };

/**
 * Asks the service for one ZIP of the selection (every file checked, as the project's admin),
 * then lets the browser download it from the link: a same-origin /blob/v1 URL whose answer is
 * an attachment, so the page stays where it is. Answers a line saying what is coming.
 */
export async function downloadZip(project: Project, selection: ZipSelection): Promise<string> {
  const link = await api<ZipLink>('POST', `/projects/${project.id}/archives`, selection);
  const anchor = document.createElement('a');
  anchor.href = link.url;
  anchor.download = '';
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  const files = `${link.fileCount} file${link.fileCount === 1 ? '' : 's'}`;
  return `Downloading ${files} as one zip (${formatBytes(link.archiveBytes)}).`;
}
