import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';
import type { CofferClient, FileRecord, UploadProgress } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import type { ProgressReporter } from './progress.ts';
import { UploadResumeFile } from './upload-resume-file.ts';

/** What `files upload` tells of a resumed upload before its progress. */
export type ResumeNotice = { offsetBytes: number; totalBytes: number };

/**
 * Uploads a local file. Over the client's threshold (8 MiB) it goes up resumably, its state
 * kept in `resumeFile` under the file's absolute path, size and mtime: the same command run
 * again after an interruption goes on where the server stopped (`onResume` says where).
 */
export async function uploadFile(
  client: CofferClient,
  input: { localPath: string; filePath?: string; resumeFile: string },
  progress: ProgressReporter,
  onResume: (notice: ResumeNotice) => void,
): Promise<FileRecord> {
  const info = await stat(input.localPath).catch((error: unknown) => {
    throw new ConfigError(`${input.localPath}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  });
  if (!info.isFile()) throw new ConfigError(`${input.localPath}: not a file`);
  const contentType = mime.lookup(input.localPath) || 'application/octet-stream';
  // A Blob backed by the file: read from disk as it is sent, never held whole in memory.
  const body = await openAsBlob(input.localPath, { type: contentType });
  const shown = showUploadProgress(progress, info.size, onResume);
  const record = await client.upload(input.filePath ?? path.basename(input.localPath), body, {
    contentType,
    resumeStore: new UploadResumeFile(input.resumeFile),
    fingerprint: JSON.stringify([path.resolve(input.localPath), info.size, info.mtimeMs]),
    onResume: shown.onResume,
    onProgress: shown.onProgress,
  });
  shown.finish();
  return record;
}

/**
 * The client's resume and progress events as `files upload` shows them. The phase starts
 * with the first event, so that a resume notice comes before the progress bar, not across it.
 */
function showUploadProgress(
  progress: ProgressReporter,
  totalBytes: number,
  onResume: (notice: ResumeNotice) => void,
) {
  let sent = 0;
  let started = false;
  const start = () => {
    if (!started) progress.phase('upload', totalBytes, 'bytes');
    started = true;
  };
  return {
    onResume: (offsetBytes: number) => {
      onResume({ offsetBytes, totalBytes });
      start();
      progress.advance(offsetBytes, 0); // done, but not moved by this run
      sent = offsetBytes;
    },
    onProgress: ({ loadedBytes }: UploadProgress) => {
      start();
      // A retried PUT starts over: progress never goes back, it waits for the retry to catch up.
      if (loadedBytes <= sent) return;
      progress.advance(loadedBytes - sent, loadedBytes - sent);
      sent = loadedBytes;
    },
    finish: () => {
      start();
      progress.finish();
    },
  };
}

/** On stderr before the progress: a line, or with --json an event beside the progress events. */
export function toResumeLine(notice: ResumeNotice, json: boolean): string {
  if (json) return `${JSON.stringify({ event: 'resume', command: 'upload', ...notice })}\n`;
  return `Resuming at ${formatBytes(notice.offsetBytes)} of ${formatBytes(notice.totalBytes)} (kept by the server from an earlier run)\n`;
}
