import { isAppError } from '../../errors/app-error.ts';
import type { ImageMeta } from '../files/file-record.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { ImageRenderer } from './image-renderer.ts';
import type { MediaHeader, MediaLimits } from './media-decoder.ts';
import type { StoredImage } from './read-image-bytes.ts';
import { type MediaOptions, readMediaHeader, sniffStoredMedia, withMediaFile } from './render-media.ts';

export type MediaSummaryOptions = MediaOptions & { renderer: ImageRenderer; limits: MediaLimits };

/** Any header is read for its numbers; the limits decide only whether a placeholder is decoded. */
const unbounded = Number.MAX_SAFE_INTEGER;

/**
 * The `meta` of phone media (issue 39): a HEIC's displayed size and placeholder; a video's
 * size, duration and codecs (probed whatever the project's video settings), and a placeholder
 * of its poster frame when the project renders videos and the clip is within maxVideoSeconds.
 * A source over the pixel limit keeps its numbers without a placeholder; bytes no tool decodes
 * (MEDIA_UNREADABLE) get no meta.
 */
export async function summarizeMedia(
  o: MediaSummaryOptions,
  source: StoredImage,
  settings: Pick<ProjectSettings, 'videoRenditions' | 'maxVideoSeconds'>,
): Promise<ImageMeta | null> {
  // The probe runs whatever videoRenditions says: only its poster is the setting's to refuse.
  const sniffed = await sniffStoredMedia(o, source, { videoRenditions: 'on' }).catch(() => undefined);
  if (!sniffed) return null;
  return withMediaFile(o, source, async (file) => {
    const header = await readMediaHeader(o, sniffed, file, { ...o.limits, maxPixels: unbounded });
    const meta = toMeta(header);
    if (!wantsPlaceholder(o.limits, header, settings)) return meta;
    try {
      const still = await o.media.decodeStill(file, header, o.limits);
      const summary = await o.renderer.summarize(still, {
        limits: { maxPixels: o.limits.maxPixels, maxMemoryBytes: o.limits.maxMemoryBytes },
        timeoutSeconds: o.limits.timeoutSeconds,
        upright: true,
      });
      return { ...meta, placeholder: summary.placeholder };
    } catch (error) {
      // A poster that cannot be made leaves the probe's numbers; a failure of ours passes up.
      if (isAppError(error) && error.statusCode < 500) return meta;
      throw error;
    }
  });
}

function toMeta(header: MediaHeader): ImageMeta {
  const meta: ImageMeta = { width: header.width, height: header.height, placeholder: null };
  if (header.kind === 'heif') return meta;
  const { durationSeconds, videoCodec, audioCodec } = header;
  return { ...meta, video: { durationSeconds, videoCodec, audioCodec } };
}

function wantsPlaceholder(
  limits: MediaLimits,
  header: MediaHeader,
  settings: Pick<ProjectSettings, 'videoRenditions' | 'maxVideoSeconds'>,
): boolean {
  if (header.width * header.height > limits.maxPixels) return false;
  if (header.kind === 'heif') return true;
  return settings.videoRenditions === 'on' && header.durationSeconds <= settings.maxVideoSeconds;
}
