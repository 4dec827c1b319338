import type { Call, FileRecord, FileVersion } from './api-shapes.ts';
import { putContent } from './put-content.ts';
import { filePath } from './request-paths.ts';
import type { UploadBody } from './upload-body.ts';
import { type TransferOptions, toSendOptions } from './upload-options.ts';

/** How the client sends a call (its #call: headers, token refresh, errors). */
type Send = <T>(call: Call) => Promise<T>;

type VersionTicket = { fileId: string; versionId: string; putFileUrl: string; postVerifyUploadUrl: string };

/*
 * A file's versions (issue 38), each the API operation of the same name, kept here so that
 * index.ts stays the client's outline.
 */

/** New content for the file in one PUT (retried whole), verified: the record, its new version current. */
export async function replaceContent(
  send: Send,
  fetch: typeof globalThis.fetch,
  fileId: string,
  body: UploadBody,
  options: TransferOptions & { contentType?: string },
): Promise<FileRecord> {
  const contentType =
    options.contentType ?? (body instanceof Blob && body.type ? body.type : 'application/octet-stream');
  const ticket = await send<VersionTicket>({
    method: 'POST',
    path: `${filePath(fileId)}/versions`,
    body: { contentType },
    auth: true,
  });
  const etag = await putContent(ticket.putFileUrl, body, { ...toSendOptions(options, fetch), contentType });
  return send<FileRecord>({
    method: 'POST',
    path: `${filePath(fileId)}/versions/${encodeURIComponent(ticket.versionId)}/verify`,
    body: { etag },
    auth: true,
  });
}

export const listVersions = (send: Send, fileId: string) =>
  send<FileVersion[]>({ method: 'GET', path: `${filePath(fileId)}/versions`, auth: true });

export const restoreVersion = (send: Send, fileId: string, versionId: string) =>
  send<FileRecord>({
    method: 'POST',
    path: `${filePath(fileId)}/versions/${encodeURIComponent(versionId)}/restore`,
    auth: true,
  });

export const deleteVersion = async (send: Send, fileId: string, versionId: string) => {
  await send({
    method: 'DELETE',
    path: `${filePath(fileId)}/versions/${encodeURIComponent(versionId)}`,
    auth: true,
  });
};
