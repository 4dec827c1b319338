import type { FileEvents } from '../domain/files/file-uploads.ts';
import type { UploadLimits } from '../domain/files/upload-limits.ts';
import type { LinkIssuer } from '../domain/links/link-issuer.ts';
import { ResumableUploads } from '../domain/resumable/resumable-uploads.ts';
import type { ServiceMetrics } from '../metrics/service-metrics.ts';
import type { WiringContext } from './wiring-context.ts';

/**
 * Resumable uploads (issue 20) over the partial blob store the storage URL picked; undefined
 * on a store without one (memory:, tests and benchmarks), where the upload request refuses
 * `resumable: true`.
 */
export function buildResumableUploads(
  context: WiringContext,
  shared: { links: LinkIssuer; limits: UploadLimits; events: FileEvents; metrics: ServiceMetrics },
): ResumableUploads | undefined {
  const { config, repositories, blobs, clock, hashes, partials } = context;
  if (!partials) return undefined;
  const { metrics, ...services } = shared;
  metrics.watchResumableUploads(() => repositories.resumableUploads.measureInProgress());
  return new ResumableUploads({
    uploads: repositories.resumableUploads,
    files: repositories.files,
    users: repositories.users,
    partials,
    blobs,
    clock,
    hashes,
    ...services,
    newBlobVersion: context.newBlobVersion,
    expirySeconds: config.resumableExpirySeconds,
    maxAgeSeconds: config.resumableMaxAgeSeconds,
  });
}
