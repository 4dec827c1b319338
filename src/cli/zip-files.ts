import { type FileHandle, open, rm } from 'node:fs/promises';
import { CofferError, toCofferError } from '../../packages/client/src/errors.ts';
import type { ArchiveLink, ArchiveSelection, CofferClient } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import type { ProgressReporter } from './progress.ts';

export type ZipInput = {
  selection: ArchiveSelection;
  /** Where to write the ZIP; the folder's name (or files) + .zip by default. */
  out?: string;
  force: boolean;
};

/**
 * `coffer files zip`: asks for the archive, then streams it to `out`. The server's ZIP is the
 * same bytes every time (exact Content-Length, a strong ETag, Range), so a connection that
 * breaks midway is resumed once from the bytes already written, with `If-Range` so that a
 * different archive is never appended to this one's start.
 */
export async function zipFiles(client: CofferClient, input: ZipInput, progress: ProgressReporter) {
  const out = input.out ?? defaultZipName(input.selection);
  // Opened before the archive is made: an existing file is refused before any work.
  const file = await openOutput(out, input.force);
  try {
    const archive = await client.archive(input.selection);
    progress.phase('download', archive.archiveBytes, 'bytes');
    const resumed = await fetchArchive(archive, file, progress);
    progress.finish();
    return { out, fileCount: archive.fileCount, archiveBytes: archive.archiveBytes, resumed };
  } catch (error) {
    await rm(out, { force: true }); // no half archive left behind under its name
    throw error;
  } finally {
    await file.close().catch(() => {});
  }
}

/** The archive's bytes into `file`; answers whether a broken connection was resumed. */
async function fetchArchive(archive: ArchiveLink, file: FileHandle, progress: ProgressReporter) {
  let written = 0;
  let etag: string | undefined;
  for (let attempt = 0; ; attempt++) {
    const response = await request(archive.url, written, etag);
    etag ??= response.headers.get('etag') ?? undefined;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        await file.write(chunk, 0, chunk.length, written);
        written += chunk.length;
        progress.advance(chunk.length, chunk.length);
      }
    } catch (error) {
      // One resume, and only with an ETag to hold the server to the same bytes.
      if (attempt > 0 || etag === undefined || written === 0) throw brokenDownload(error);
      continue;
    }
    if (written !== archive.archiveBytes)
      throw new CofferError(
        0,
        'NETWORK_ERROR',
        `The archive ended at ${written} of ${archive.archiveBytes} bytes`,
      );
    return attempt > 0;
  }
}

/** The whole archive, or (`from` > 0) its rest: a 206 that starts at `from`, else an error. */
async function request(url: string, from: number, etag: string | undefined): Promise<Response> {
  // RFC 9110 §13.1.5: If-Range with the strong ETag: the rest of this archive, or nothing of another.
  const headers: Record<string, string> =
    from > 0 && etag ? { range: `bytes=${from}-`, 'if-range': etag } : {};
  const response = await fetch(url, { headers }).catch((error: unknown) => {
    throw brokenDownload(error);
  });
  if (!response.ok) throw await toCofferError(response);
  if (from === 0) return response;
  const start = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1];
  if (response.status !== 206 || Number(start) !== from) {
    await response.body?.cancel().catch(() => {});
    throw new CofferError(0, 'NETWORK_ERROR', 'The archive could not be resumed: the server sent it whole');
  }
  return response;
}

function brokenDownload(cause: unknown): CofferError {
  if (cause instanceof CofferError) return cause;
  return new CofferError(0, 'NETWORK_ERROR', 'The archive download broke off', { cause });
}

/** `photos/2024/` → `2024.zip`; a selection (or the root) → `files.zip`, as the server names it. */
export function defaultZipName(selection: ArchiveSelection): string {
  const folder = 'folder' in selection ? selection.folder.path.split('/').filter(Boolean).at(-1) : undefined;
  return `${folder ?? 'files'}.zip`;
}

/** Opens `out` for writing; never over an existing file unless `force`. */
export async function openOutput(out: string, force: boolean): Promise<FileHandle> {
  return open(out, force ? 'w' : 'wx').catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'EEXIST' ? `${out} exists (--force overwrites it)` : `${out}: cannot write it (${code})`,
    );
  });
}
