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
};

/**
 * An upload request (spec 4.1) that also opens a resumable upload of the declared length
 * (issue 20): the record is created exactly as POST /api/v1/file creates it, with its
 * declared length reserved against the quotas, and kept until the resumable upload's deadline.
 */
export async function requestResumableUpload(
  services: {
    fileUploads: FileUploads;
    resumableUploads: ResumableUploads | undefined;
    repositories: { files: FileRepository };
  },
  principal: Principal,
  request: ResumableRequest,
): Promise<{ file: FileRecord; upload: IssuedLink; resumable: IssuedLink }> {
  const resumableUploads = services.resumableUploads;
  if (!resumableUploads) throw validationFailed("This server's blob store does not take resumable uploads");
  if (request.declared.sizeBytes === null)
    throw validationFailed('A resumable upload needs its contentLength (tus: Upload-Length)');
  const keepUntil = resumableUploads.uploadDeadline(new Date());
  const { file, upload } = await services.fileUploads.requestUpload(principal, { ...request, keepUntil });
  try {
    const { url } = await resumableUploads.begin(file);
    return { file, upload, resumable: url };
  } catch (error) {
    // No upload could start (the store is down): the record would only hold its reservation.
    await services.repositories.files.deleteIfNeverUploaded(file.id).catch(() => {});
    throw error;
  }
}
