import { FileQuarantine } from '../domain/admission/file-quarantine.ts';
import type { PendingBytesReader } from '../domain/admission/pending-bytes.ts';
import { Archives } from '../domain/archives/archives.ts';
import { FileHolds } from '../domain/files/file-holds.ts';
import { FileOrganizer } from '../domain/files/file-organizer.ts';
import { FileReading } from '../domain/files/file-reading.ts';
import { FileSharing } from '../domain/files/file-sharing.ts';
import type { FileStores } from '../domain/files/file-stores.ts';
import { FileUploads } from '../domain/files/file-uploads.ts';
import type { FileEvents } from '../domain/files/file-uploads-options.ts';
import { UploadLimits } from '../domain/files/upload-limits.ts';
import { EpochCache } from '../domain/identity/epoch-cache.ts';
import type { Project } from '../domain/identity/project-repository.ts';
import { defaultProjectSettings, type ProjectSettings } from '../domain/identity/project-settings.ts';
import { LinkSigner } from '../domain/links/link-signer.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import type { ImageSummarizer } from '../domain/renditions/image-summarizer.ts';
import type { Renditions } from '../domain/renditions/renditions.ts';
import type { DirectMultipart } from '../domain/resumable/direct-multipart.ts';
import type { DirectMultipartSigner } from '../domain/resumable/direct-multipart-signer.ts';
import type { ResumableUploads } from '../domain/resumable/resumable-uploads.ts';
import { FileVersions } from '../domain/versions/file-versions.ts';
import { VersionUploads } from '../domain/versions/version-uploads.ts';
import { CountingLinkIssuer } from '../metrics/counting-link-issuer.ts';
import type { ServiceMetrics } from '../metrics/service-metrics.ts';
import { buildRenditions } from './rendition-services.ts';
import { buildMultipartSigner, buildResumableServices } from './resumable-services.ts';
import { buildAdmissionHook, buildScanGate } from './scan-services.ts';
import { buildKeyRing, type InitialKeys } from './signing-keys.ts';
import { buildTrashPurging } from './trash-services.ts';
import type { WiringContext } from './wiring-context.ts';

/** The file rules of the spec (4.1–4.5) and DESIGN §4, one service per part, independent of HTTP. */
export type FileServices = {
  /** Request, the gateway's PUT, verify. */
  fileUploads: FileUploads;
  /** Share, unshare, revoke links. */
  fileSharing: FileSharing;
  /** Records with download links, listings, and the bytes behind a download link. */
  fileReading: FileReading;
  /** Copy, move, delete (single and bulk), custom data. */
  fileOrganizer: FileOrganizer;
  /** Legal holds (issue 38): set and lifted by project admins. */
  fileHolds: FileHolds;
  /** Quarantined files (issue 42): set by a re-scan, released by project admins. */
  fileQuarantine: FileQuarantine;
  /** The admission hooks' reads of pending bytes (issue 42): the gateway's /blob/v1/admissions. */
  pendingBytes: PendingBytesReader;
  /** Resumable uploads (tus 1.0); undefined on a store without them. */
  resumableUploads: ResumableUploads | undefined;
  /** Parallel uploads of parts straight to S3; undefined on other stores. */
  directMultipart: DirectMultipart | undefined;
  /** Uppy's `@uppy/aws-s3` requests on those uploads (issue 43); undefined on other stores. */
  directMultipartSigner: DirectMultipartSigner | undefined;
  /** New content for existing files: request, PUT, verify (issue 38). */
  versionUploads: VersionUploads;
  /** Files' versions: list, restore, delete (issue 38). */
  fileVersions: FileVersions;
  /** Image renditions: links to them, and their bytes (rendered on first use). */
  renditions: Renditions;
  /** Verified images' dimensions and placeholders, made in the background of `serve`. */
  imageSummarizer: ImageSummarizer;
  /** HEIC and video decoders in a box (issue 39): closed with the services (its tools killed). */
  mediaDecoder: { close(): Promise<void> };
  /** ZIPs of many files behind one link (issue 40): made, then served by the gateway. */
  archives: Archives;
};

export function buildFileServices(
  context: WiringContext,
  shared: { keys: InitialKeys; metrics: ServiceMetrics },
): FileServices {
  const { config, repositories, blobs, clock, publicUrl } = context;
  const { metrics } = shared;
  const directUploads = config.uploadMode === 'direct';
  const links = new CountingLinkIssuer(
    {
      signer: buildKeyRing(
        context,
        { purpose: 'link', keys: shared.keys.link },
        (keys) => new LinkSigner(keys),
      ),
      blobs,
      baseUrl: () => publicUrl.value,
      directUploads,
    },
    metrics,
  );
  const settingsOf = projectSettingsReader(context);
  const limits = new UploadLimits({
    settingsOf,
    usage: repositories.storageUsage,
    serverMaxFileSizeBytes: config.maxFileSizeBytes,
  });
  const stores: FileStores = { files: repositories.files, blobs, clock };
  const scans = buildScanGate(context, settingsOf);
  const { admissions, pendingBytes } = buildAdmissionHook(context, { links, settingsOf });
  const events: FileEvents = {
    uploadCommitted: (sizeBytes) => metrics.uploaded(sizeBytes),
    uploadVerified: () => metrics.verified(),
  };
  const uploadOptions = {
    ...stores,
    links,
    uploadLinkTtlSeconds: config.uploadLinkTtlSeconds,
    maxFileSizeBytes: config.maxFileSizeBytes,
    directUploads,
    hashes: context.hashes,
    limits,
    scans,
    admissions,
  };
  const { versions } = repositories;
  const fileUploads = new FileUploads({ ...uploadOptions, events });
  const resumable = buildResumableServices(context, { links, limits, events, metrics });
  return {
    fileUploads,
    versionUploads: new VersionUploads({ ...uploadOptions, versions, settingsOf }),
    fileVersions: new FileVersions({ ...stores, versions, limits, settingsOf }),
    fileSharing: new FileSharing({
      ...stores,
      users: repositories.users,
      emailShares: {
        buckets: new TokenBuckets(repositories.rateLimits),
        perUser: toBucketRule(config.emailSharesPerUserPerHour),
      },
    }),
    fileReading: new FileReading({ ...stores, links, settingsOf, versions }),
    fileOrganizer: new FileOrganizer({
      ...stores,
      limits,
      trash: { files: repositories.trash, purging: buildTrashPurging(context, settingsOf), settingsOf },
    }),
    fileHolds: new FileHolds(stores),
    fileQuarantine: new FileQuarantine({ ...stores, quarantine: repositories.quarantine }),
    pendingBytes,
    archives: new Archives({ ...stores, archives: repositories.archives, links, settingsOf }),
    ...resumable,
    directMultipartSigner: buildMultipartSigner(context, { ...resumable, links, fileUploads }),
    ...buildRenditions(context, { links, metrics, settingsOf }),
  };
}

/** Project settings by project id, cached until a project changes (the access epoch). */
export function projectSettingsReader({ repositories, accessEpoch }: WiringContext) {
  const projects = new EpochCache<Project>(accessEpoch);
  return async (projectId: string): Promise<ProjectSettings> => {
    const project = await projects.get(projectId, () => repositories.projects.findById(projectId));
    return project?.settings ?? defaultProjectSettings;
  };
}
