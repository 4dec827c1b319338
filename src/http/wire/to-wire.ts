import type { FileRecord } from '../../domain/files/file-record.ts';
import type { User } from '../../domain/identity/user-repository.ts';
import type { FileRecordView } from './schemas.ts';

/**
 * Views of the records the per-process file cache shares (frozen: file-view-cache.ts), made
 * once per record rather than per request: its three date conversions were a few percent of a
 * metadata request's CPU. A record that changes is a new object, so a view never goes stale.
 */
const viewsOfSharedRecords = new WeakMap<FileRecord, FileRecordView>();

/** Spec 2.1: the file record as clients see it (frozen when the record is: never change it). */
export function toFileView(file: FileRecord): FileRecordView {
  if (!Object.isFrozen(file)) return buildFileView(file);
  let view = viewsOfSharedRecords.get(file);
  if (view === undefined) {
    view = buildFileView(file);
    Object.freeze(view.meta);
    Object.freeze(view);
    viewsOfSharedRecords.set(file, view);
  }
  return view;
}

function buildFileView(file: FileRecord): FileRecordView {
  const view: FileRecordView = {
    _id: file.id,
    __createdAt: file.createdAt.toISOString(),
    __updatedAt: file.updatedAt.toISOString(),
    __v: file.version,
    filePath: file.filePath,
    key: `${file.projectId}/${file.creatorId}/${file.filePath}`,
    creator: file.creatorId,
    project: file.projectId,
    meta: file.content
      ? {
          LastModified: file.content.lastModified.toUTCString(),
          ContentLength: String(file.content.sizeBytes),
          ContentType: file.content.contentType,
          ...(file.content.checksumSha256 && { ChecksumSHA256: file.content.checksumSha256 }),
          ...(file.image && { width: file.image.width, height: file.image.height }),
          ...(file.image?.placeholder && { placeholder: file.image.placeholder }),
          ...(file.scan && file.scan.result !== 'infected' && { scan: file.scan }),
          ...(file.image?.video && {
            durationSeconds: file.image.video.durationSeconds,
            videoCodec: file.image.video.videoCodec,
            audioCodec: file.image.video.audioCodec,
          }),
        }
      : {},
    acl: file.acl,
    folderAcl: file.folderAcl,
    verified: file.verified,
    permissionScope: file.permissionScope,
  };
  if (file.etag) view.etag = file.etag;
  if (file.verified) view.versionId = file.contentVersion.id;
  if (file.customData) view.customData = file.customData;
  if (file.hold)
    view.hold = {
      reason: file.hold.reason,
      heldAt: file.hold.heldAt.toISOString(),
      heldBy: file.hold.heldBy,
    };
  if (file.quarantine)
    view.quarantine = {
      signature: file.quarantine.signature,
      quarantinedAt: file.quarantine.quarantinedAt.toISOString(),
      versionId: file.quarantine.versionId,
    };
  return view;
}

/** A user's identity at a provider, in the seed's shape (issue 37). */
export type ProviderView = { id: string; displayName: string; providerName: string };

/** Spec 2.4: the profile of a user, its providers (issue 37) included. Devices are not managed by Coffer. */
export function toProfileView(user: User, providers: ProviderView[] = []) {
  return {
    _id: user.id,
    role: user.role,
    ownerId: null,
    providers,
    devices: [],
    picture: null,
    displayName: user.displayName,
    emails: [{ email: user.email, primary: true, verified: user.emailVerifiedAt !== null }],
    accountState: { enabled: user.enabled, expired: false },
    __createdAt: user.createdAt.toISOString(),
    __updatedAt: user.updatedAt.toISOString(),
    __v: user.version,
  };
}
