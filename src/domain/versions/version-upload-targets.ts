import type { FileRepository } from '../files/file-repository.ts';
import type { UploadTargets } from '../resumable/upload-targets.ts';
import { toUploadTarget } from './upload-target.ts';
import type { VersionRepository } from './version-repository.ts';

/**
 * The targets of resumable uploads (issue 38): a new file's record, or else a new version's
 * upload, seen as its own record. Ids are random and shared by neither table, so the file is
 * asked first (the common case costs what it did) and the version upload only when it misses.
 */
export function versionAwareTargets(files: FileRepository, versions: VersionRepository): UploadTargets {
  return {
    async findById(id) {
      const file = await files.findById(id);
      if (file) return file;
      const upload = await versions.findUpload(id);
      const owner = upload && (await files.findById(upload.fileId));
      return owner && upload && toUploadTarget(owner, upload);
    },
    async commitUpload(id, upload, quotas) {
      const outcome = await files.commitUpload(id, upload, quotas);
      return outcome === 'missing' ? versions.commitUpload(id, upload, quotas) : outcome;
    },
    async deleteIfNeverUploaded(id) {
      return (await files.deleteIfNeverUploaded(id)) || versions.deleteUploadIfNeverUploaded(id);
    },
  };
}
