import type { ProjectSettings } from '../domain/identity/project-settings.ts';
import type { LinkIssuer } from '../domain/links/link-issuer.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import { ImageSummarizer } from '../domain/renditions/image-summarizer.ts';
import type { StoredImage } from '../domain/renditions/read-image-bytes.ts';
import { RenderQueue } from '../domain/renditions/render-queue.ts';
import { Renditions } from '../domain/renditions/renditions.ts';
import { FirstUseImageRenderer } from '../images/first-use-image-renderer.ts';
import { createMediaDecoder, type ToolMediaDecoder } from '../media/tool-media-decoder.ts';
import type { ServiceMetrics } from '../metrics/service-metrics.ts';
import type { WiringContext } from './wiring-context.ts';

/**
 * Image renditions (issue 21): sharp in-process, behind one bounded queue shared with the
 * summaries of verified images, renditions cached in the blob store. HEIC and video (issue 39)
 * are decoded by Debian's tools in a box (src/media/), taking the same slots.
 */
export function buildRenditions(
  context: WiringContext,
  shared: {
    links: LinkIssuer;
    metrics: ServiceMetrics;
    settingsOf: (projectId: string) => Promise<ProjectSettings>;
  },
): { renditions: Renditions; imageSummarizer: ImageSummarizer; mediaDecoder: ToolMediaDecoder } {
  const { config, repositories, blobs, clock } = context;
  const { metrics } = shared;
  const queue = new RenderQueue({
    concurrency: config.renditionConcurrency,
    queueLength: config.renditionQueueLength,
    maxWaitMs: config.renditionTimeoutSeconds * 1000,
  });
  metrics.renditions.watchQueue(() => queue.load);
  const renderer = new FirstUseImageRenderer();
  const limits = {
    maxPixels: config.renditionMaxPixels,
    maxSourceBytes: config.renditionMaxSourceBytes,
    maxMemoryBytes: config.renditionMaxMemoryBytes,
  };
  const timeoutSeconds = config.renditionTimeoutSeconds;
  const mediaDecoder = createMediaDecoder(config, { log: warnings });
  const media = {
    media: mediaDecoder,
    // A video from a store without local files: its first and last bytes (docs/decisions.md).
    openMediaFile: (source: StoredImage) =>
      mediaDecoder.openFile(blobs, source, { windowBytes: config.renditionMaxSourceBytes }),
  };
  const imageSummarizer = new ImageSummarizer({
    summaries: repositories.imageSummaries,
    blobs,
    renderer,
    queue,
    limits,
    timeoutSeconds,
    settingsOf: shared.settingsOf,
    ...media,
  });
  const renditions = new Renditions({
    files: repositories.files,
    blobs,
    clock,
    links: shared.links,
    renditions: repositories.renditions,
    renderer,
    queue,
    settingsOf: shared.settingsOf,
    limits,
    timeoutSeconds,
    newRenditions: {
      buckets: new TokenBuckets(repositories.rateLimits),
      perUser: toBucketRule(config.newRenditionsPerUserPerHour),
    },
    onRendered: (seconds, sizeBytes) => metrics.renditions.rendered(seconds, sizeBytes),
    onServed: (cached) => metrics.renditions.requested(cached),
    ...media,
  });
  return { renditions, imageSummarizer, mediaDecoder };
}

/** The media tools' warnings (a tool not found, a tool's stderr), as pino's JSON lines on stderr. */
const warnings = {
  warn(details: object, message: string) {
    process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), ...details, msg: message })}\n`);
  },
};
