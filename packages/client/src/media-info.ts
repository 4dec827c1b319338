import type { FileMeta } from './api-shapes.ts';

/*
 * What a gallery of mixed media asks of a record (issue 39): which files get a still (a
 * photo's rendition, a HEIC's photo, a video's poster frame) and a video's duration. Pure
 * functions of the record, so a page can decide before it asks for any link.
 */

/** Enough of a record (a FileRecord, a trash item, an event's file) to tell its media. */
export type MediaRecord = { verified?: boolean; meta: FileMeta };

/** The types Coffer renders a still of (src/domain/renditions/renderable-source.ts). */
const stillTypes = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'video/x-matroska',
]);

/** The record's media type without parameters, lower case ('' when none is known yet). */
const mediaTypeOf = (file: MediaRecord) => (file.meta.ContentType ?? '').split(';')[0]!.trim().toLowerCase();

/** Whether the file is a video (any `video/*` type, rendered or not). */
export function isVideo(file: MediaRecord): boolean {
  return mediaTypeOf(file).startsWith('video/');
}

/**
 * Whether Coffer renders a still of this verified file: `get(id, { width, format })` links to
 * the image, a HEIC's photo or a video's poster frame. The project's settings (renditions
 * off, videoRenditions off) and size limits may still refuse one.
 */
export function hasStill(file: MediaRecord): boolean {
  return file.verified !== false && stillTypes.has(mediaTypeOf(file));
}

/** A video's duration in seconds, once the server has probed it (a moment after verify); else undefined. */
export function durationOf(file: MediaRecord): number | undefined {
  return isVideo(file) ? file.meta.durationSeconds : undefined;
}

/** A duration as a player shows it: `0:07`, `2:05`, `1:02:05` (whole seconds, rounded down). */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${minutes}:${pad(rest)}`;
}
