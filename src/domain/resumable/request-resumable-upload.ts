import { isAppError } from '../../errors/app-error.ts';
import { validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { FileRecord, PermissionScope, UploadContract } from '../files/file-record.ts';
import type { FileRepository } from '../files/file-repository.ts';
import type { FileUploads } from '../files/file-uploads.ts';
import type { IssuedLink } from '../links/link-issuer.ts';
import type { ResumableUploads } from './resumable-uploads.ts';

export type ResumableRequest = {
  filePath: string;
  permissionScope: PermissionScope;
  customData?: unknown;
  declared: UploadContract;
  /**
   * POST /api/v1/file: a repeat of an unfinished upload's request answers that upload. Not for
   * tus creation: a stock tus client PATCHes a created upload from 0, and would only conflict.
   */
  resumeUnfinished?: boolean;
  /** tus `verify=true` (issue 43): the upload is verified when its last byte lands (auto-verify.ts). */
  verify?: boolean;
};

/**
 * An upload request (spec 4.1) that also opens a resumable upload of the declared length
 * (issue 20): the record is created exactly as POST /api/v1/file creates it, with its
 * declared length reserved against the quotas, and kept until the resumable upload's deadline.
 */
type RequestServices = {
  fileUploads: FileUploads;
  resumableUploads: ResumableUploads | undefined;
  repositories: { files: FileRepository };
};

/** The record, its putFileUrl and its resumableUrl; `resumed` when the upload was requested before. */
export type ResumableAnswer = { file: FileRecord; upload: IssuedLink; resumable: IssuedLink; resumed?: true };

export async function requestResumableUpload(
  services: RequestServices,
  principal: Principal,
  request: ResumableRequest,
): Promise<ResumableAnswer> {
  const resumableUploads = services.resumableUploads;
  if (!resumableUploads) throw validationFailed("This server's blob store does not take resumable uploads");
  if (request.declared.sizeBytes === null)
    throw validationFailed('A resumable upload needs its contentLength (tus: Upload-Length)');
  const keepUntil = resumableUploads.uploadDeadline(new Date());
  const requested = await services.fileUploads
    .requestUpload(principal, { ...request, keepUntil })
    .catch(async (error: unknown) => {
      const repeated = isFileExists(error) && request.resumeUnfinished;
      const unfinished = repeated && (await findUnfinished(services, principal, request));
      if (!unfinished) throw error;
      return unfinished;
    });
  if ('resumable' in requested) return requested;
  const { file, upload } = requested;
  try {
    const { url } = await resumableUploads.begin(file, request.verify === true);
    return { file, upload, resumable: url };
  } catch (error) {
    // No upload could start (the store is down): the record would only hold its reservation.
    await services.repositories.files.deleteIfNeverUploaded(file.id).catch(() => {});
    throw error;
  }
}

/**
 * A repeated request for a path whose resumable upload is unfinished (issue 35, item 6): the
 * same caller (the path is unique per creator), a record still waiting for its first content,
 * and the same contract (length, type, checksum) get that upload's URL again, to go on from
 * its offset; anything else stays FILE_EXISTS. The contract is what binds the bytes: a client
 * that may send other bytes of the same length declares its checksum (docs/decisions.md).
 */
async function findUnfinished(
  services: RequestServices,
  principal: Principal,
  request: ResumableRequest,
): Promise<ResumableAnswer | undefined> {
  const owner = { projectId: principal.projectId, creatorId: principal.userId };
  const file = await services.repositories.files.findByPath(owner, request.filePath);
  if (!file || file.verified || file.pendingUpload || !isSameContract(file.declared, request.declared))
    return undefined;
  const unfinished = await services.resumableUploads!.findUnfinished(file);
  if (!unfinished) return undefined;
  const upload = await services.fileUploads.reissueUploadLink(file);
  return { file, upload, resumable: unfinished.url, resumed: true };
}

function isSameContract(held: UploadContract, asked: UploadContract): boolean {
  return (
    held.sizeBytes === asked.sizeBytes &&
    held.contentType === asked.contentType &&
    held.checksumSha256 === asked.checksumSha256
  );
}

function isFileExists(error: unknown): boolean {
  return isAppError(error) && error.code === 'FILE_EXISTS';
}
