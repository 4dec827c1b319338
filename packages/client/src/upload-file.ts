import type { FileRecord } from './api-shapes.ts';
import { CofferError } from './errors.ts';
import { requestUpload, verifyUpload } from './file-organizing.ts';
import { putContent } from './put-content.ts';
import { toResumeKey } from './resume-key.ts';
import type { ResumeStore } from './resume-store.ts';
import type { SessionTransport } from './session-transport.ts';
import { type ByteSource, toByteSource, type UploadBody } from './upload-body.ts';
import {
  defaultResumableThresholdBytes,
  type TransferOptions,
  toSendOptions,
  type UploadOptions,
} from './upload-options.ts';
import { finishUpload, type ResumableCalls, uploadResumably } from './upload-resumably.ts';

/** What upload() works with: the client's session and calls, and its resume store. */
export type UploadContext = {
  transport: SessionTransport;
  /** Resumable uploads' state when the call names no store. */
  resumeStore: ResumeStore;
  /** The client's get() and delete(): a resumable upload that is gone discards its unverified record. */
  get(fileId: string): Promise<unknown>;
  delete(fileId: string): Promise<void>;
};

/**
 * CofferClient.upload(): request, send, verify; up to `resumableThresholdBytes` one PUT
 * (retried whole), above a resumable upload the store remembers. Kept here so that index.ts
 * stays the client's outline.
 */
export async function uploadFile(
  context: UploadContext,
  filePath: string,
  body: UploadBody,
  options: UploadOptions,
): Promise<FileRecord> {
  const { transport } = context;
  const request = { filePath, permissionScope: options.permissionScope ?? 'user' };
  const contentType =
    options.contentType ?? (body instanceof Blob && body.type ? body.type : 'application/octet-stream');
  // A string is encoded once, whichever way it goes.
  const content = typeof body === 'string' ? new Blob([body], { type: contentType }) : body;
  const source = toByteSource(content);
  if (source.sizeBytes > (options.resumableThresholdBytes ?? defaultResumableThresholdBytes))
    return uploadFileResumably(context, { ...request, contentType }, source, options);
  const ticket = await requestUpload(transport.call, request);
  const etag = await putContent(ticket.putFileUrl, content, {
    ...toSendOptions(options, transport.fetch),
    contentType,
  });
  return verifyUpload(transport.call, ticket.fileId, etag);
}

async function uploadFileResumably(
  context: UploadContext,
  request: { filePath: string; permissionScope: 'user' | '*'; contentType: string },
  source: ByteSource,
  options: UploadOptions,
): Promise<FileRecord> {
  const { transport } = context;
  const userId = transport.session?.userId;
  if (!userId) throw new CofferError(401, 'AUTH_REQUIRED', 'Not logged in');
  const calls: ResumableCalls<FileRecord> = {
    requestResumable: (contentLength) =>
      requestUpload(transport.call, { ...request, contentLength, resumable: true }),
    verify: (fileId, etag) => verifyUpload(transport.call, fileId, etag),
    get: context.get,
    delete: context.delete,
  };
  const scope = { baseUrl: transport.options.baseUrl, userId, filePath: request.filePath };
  return uploadResumably(calls, source, {
    ...toSendOptions(options, transport.fetch),
    store: options.resumeStore ?? context.resumeStore,
    key: await toResumeKey(scope, source, options.fingerprint),
  });
}

/** CofferClient.resumeUpload(): sends what the server lacks of `body` at a known upload URL, verifies. */
export function resumeUploadFile(
  context: Pick<UploadContext, 'transport'>,
  upload: { fileId: string; resumableUrl: string },
  body: UploadBody,
  options: TransferOptions,
): Promise<FileRecord> {
  const { transport } = context;
  const calls = { verify: (fileId: string, etag: string) => verifyUpload(transport.call, fileId, etag) };
  return finishUpload(calls, upload, toByteSource(body), toSendOptions(options, transport.fetch));
}
