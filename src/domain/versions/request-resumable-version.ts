import { validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { UploadContract } from '../files/file-record.ts';
import type { IssuedLink } from '../links/link-issuer.ts';
import type { ResumableUploads } from '../resumable/resumable-uploads.ts';
import type { VersionUpload } from './file-version.ts';
import { toUploadTarget } from './upload-target.ts';
import type { VersionRepository } from './version-repository.ts';
import type { VersionUploads } from './version-uploads.ts';

type RequestServices = {
  versionUploads: VersionUploads;
  resumableUploads: ResumableUploads | undefined;
  repositories: { versions: VersionRepository };
};

/**
 * POST /api/v1/file/:id/versions {resumable: true} (issue 38): a new version's upload that also
 * opens a resumable upload (tus 1.0) of its declared length, as POST /api/v1/file does for a
 * new file. The version upload is kept as long as the resumable one may go on; its last byte
 * commits to the version upload, and the verify makes it current as after a PUT.
 */
export async function requestResumableVersion(
  services: RequestServices,
  principal: Principal,
  fileId: string,
  declared: UploadContract,
): Promise<{ upload: VersionUpload; link: IssuedLink; resumable: IssuedLink }> {
  const resumableUploads = services.resumableUploads;
  if (!resumableUploads) throw validationFailed("This server's blob store does not take resumable uploads");
  if (declared.sizeBytes === null)
    throw validationFailed('A resumable upload needs its contentLength (tus: Upload-Length)');
  const keepUntil = resumableUploads.uploadDeadline(new Date());
  const { file, upload, link } = await services.versionUploads.request(
    principal,
    fileId,
    declared,
    keepUntil,
  );
  try {
    const { url } = await resumableUploads.begin(toUploadTarget(file, upload));
    return { upload, link, resumable: url };
  } catch (error) {
    // No upload could start (the store is down): the version upload would only hold its reservation.
    await services.repositories.versions.deleteUploadIfNeverUploaded(upload.id).catch(() => {});
    throw error;
  }
}
