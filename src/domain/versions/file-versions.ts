import { fileNotFound, fileOnHold, validationFailed, versionNotFound } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { FileStores } from '../files/file-stores.ts';
import { getAccessibleFile } from '../files/get-accessible-file.ts';
import type { UploadLimits } from '../files/upload-limits.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import { newId } from '../ids.ts';
import type { FileVersion } from './file-version.ts';
import { releaseBlobs } from './release-blobs.ts';
import type { VersionRepository } from './version-repository.ts';

export type FileVersionsOptions = FileStores & {
  versions: VersionRepository;
  limits: UploadLimits;
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
};

/** A version as GET /api/v1/file/:id/versions lists it. */
export type VersionEntry = Pick<FileVersion, 'versionId' | 'etag' | 'content' | 'createdAt' | 'createdBy'> & {
  current: boolean;
};

/**
 * A file's versions (issue 38, item 2): the list, restoring an earlier one (a new current
 * version with the same bytes: nothing is copied) and deleting one. Reading them needs read
 * access to the file; changing them is the creator's or an admin's.
 */
export class FileVersions {
  readonly #o: FileVersionsOptions;

  constructor(options: FileVersionsOptions) {
    this.#o = options;
  }

  /** The current version first, then the earlier ones, newest first. */
  async list(principal: Principal, fileId: string): Promise<VersionEntry[]> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'read');
    const earlier = await this.#o.versions.list(file.id);
    const current: VersionEntry[] =
      file.verified && file.content && file.etag
        ? [
            {
              versionId: file.contentVersion.id,
              etag: file.etag,
              content: file.content,
              createdAt: file.contentVersion.createdAt,
              createdBy: file.contentVersion.createdBy,
              current: true,
            },
          ]
        : [];
    return [...current, ...earlier.map((version) => ({ ...version, current: false }))];
  }

  /** POST /api/v1/file/:id/versions/:versionId/restore: that version's bytes become current again. */
  async restore(principal: Principal, fileId: string, versionId: string): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    if (file.hold) throw fileOnHold();
    if (versionId === file.contentVersion.id) return file; // already current: nothing to do
    const version = await this.#o.versions.find(file.id, versionId);
    if (!version) throw versionNotFound();
    // Its bytes count again as the current content (as a copy's do): the quotas are re-checked.
    const contentType = version.content.contentType;
    await this.#o.limits.assertTypeAllowed(file.projectId, contentType);
    const now = this.#o.clock.now();
    const { versionsKept } = await this.#o.settingsOf(file.projectId);
    const restoredId = newId();
    const outcome = await this.#o.versions.promote(
      file.id,
      {
        versionId: restoredId,
        blobFileId: version.blobFileId,
        blobVersion: version.blobVersion,
        etag: version.etag,
        content: { ...version.content, checksumSha256: version.content.checksumSha256 ?? null },
        // The same bytes: their CRC-32 travels with them.
        contentCrc32: version.contentCrc32,
        scan: version.scan,
        createdBy: principal.userId,
      },
      {
        now,
        versionsKept,
        event: toFileEvent('file.version_restored', principal, file, now, {
          versionId: restoredId,
          restoredVersionId: versionId,
          previousVersionId: file.contentVersion.id,
          sizeBytes: version.content.sizeBytes,
        }),
        quotas: await this.#o.limits.quotasOf(file.projectId),
      },
    );
    if (outcome === 'held') throw fileOnHold();
    if (typeof outcome === 'string') throw fileNotFound();
    await releaseBlobs(this.#o, file.projectId, outcome.pruned);
    return outcome.file;
  }

  /** DELETE /api/v1/file/:id/versions/:versionId: an earlier version and (unless shared) its bytes. */
  async delete(principal: Principal, fileId: string, versionId: string): Promise<void> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    if (versionId === file.contentVersion.id)
      throw validationFailed(
        'versionId: the current version cannot be deleted; restore another first, or delete the file',
      );
    if (file.hold) throw fileOnHold();
    const event = toFileEvent('file.version_deleted', principal, file, this.#o.clock.now(), { versionId });
    const outcome = await this.#o.versions.delete(file.id, versionId, event);
    if (outcome === 'held') throw fileOnHold();
    if (outcome === 'missing') throw versionNotFound();
    await releaseBlobs(this.#o, file.projectId, [outcome]);
  }
}
