import type { FileEvents } from '../domain/files/file-uploads-options.ts';
import type { UploadLimits } from '../domain/files/upload-limits.ts';
import type { LinkIssuer } from '../domain/links/link-issuer.ts';
import { DirectMultipart, takesDirectParts } from '../domain/resumable/direct-multipart.ts';
import {
  DirectMultipartSigner,
  type DirectMultipartSignerOptions,
} from '../domain/resumable/direct-multipart-signer.ts';
import { ResumableUploads } from '../domain/resumable/resumable-uploads.ts';
import { versionAwareTargets } from '../domain/versions/version-upload-targets.ts';
import type { ServiceMetrics } from '../metrics/service-metrics.ts';
import type { WiringContext } from './wiring-context.ts';

/**
 * Resumable uploads (issue 20) over the partial blob store the storage URL picked, and beside
 * them, on a store whose parts clients can reach (S3), parallel uploads of parts straight to
 * it. Undefined on a store without them (memory:, tests and benchmarks; disk for the parallel
 * ones), where the upload request refuses `resumable: true` and the multipart routes answer 400.
 */
export function buildResumableServices(
  context: WiringContext,
  shared: { links: LinkIssuer; limits: UploadLimits; events: FileEvents; metrics: ServiceMetrics },
): { resumableUploads: ResumableUploads | undefined; directMultipart: DirectMultipart | undefined } {
  const { config, repositories, blobs, clock, hashes, partials, leaseHolders } = context;
  if (!partials) return { resumableUploads: undefined, directMultipart: undefined };
  const { metrics, links, ...commit } = shared;
  metrics.watchResumableUploads(() => repositories.resumableUploads.measureInProgress());
  const common = {
    uploads: repositories.resumableUploads,
    files: repositories.files,
    targets: versionAwareTargets(repositories.files, repositories.versions),
    blobs,
    clock,
    hashes,
    leaseHolders,
    ...commit,
    newBlobVersion: context.newBlobVersion,
    expirySeconds: config.resumableExpirySeconds,
    maxAgeSeconds: config.resumableMaxAgeSeconds,
  };
  const resumableUploads = new ResumableUploads({ ...common, partials, links, users: repositories.users });
  return {
    resumableUploads,
    directMultipart: takesDirectParts(partials)
      ? new DirectMultipart({ ...common, partials, resumableUploads })
      : undefined,
  };
}

/** Uppy's `@uppy/aws-s3` signing (issue 43) over the parallel uploads, where there are any. */
export function buildMultipartSigner(
  { repositories, clock }: WiringContext,
  shared: Pick<DirectMultipartSignerOptions, 'links' | 'fileUploads'> & {
    directMultipart: DirectMultipart | undefined;
  },
): DirectMultipartSigner | undefined {
  const { directMultipart, ...rest } = shared;
  if (!directMultipart) return undefined;
  const { files, projects, users } = repositories;
  return new DirectMultipartSigner({ ...rest, multipart: directMultipart, files, projects, users, clock });
}
