import { maxTimerSeconds, type Setting } from '../setting.ts';

/**
 * Image renditions (issue 21): the limits a source must keep (checked from its header, before
 * any decoding) and the bounds of the render queue (docs/security.md, "Image renditions").
 */
export const renditionSettings = {
  renditionMaxPixels: {
    env: 'COFFER_RENDITION_MAX_PIXELS',
    kind: 'integer',
    defaultValue: 50_000_000,
    min: 1,
    max: 268_402_689,
    doc: 'The most pixels (width × height, first frame) an image may have to be rendered; larger ones answer 422 IMAGE_TOO_LARGE without being decoded.',
  },
  renditionMaxSourceBytes: {
    env: 'COFFER_RENDITION_MAX_SOURCE_BYTES',
    kind: 'integer',
    defaultValue: 25 * 1024 * 1024,
    min: 1,
    max: 1024 * 1024 * 1024,
    doc: 'The largest image file, in bytes, that is rendered (from S3 a render reads its source into memory; from disk libvips reads the file); larger ones answer 422 IMAGE_TOO_LARGE.',
  },
  renditionMaxMemoryBytes: {
    env: 'COFFER_RENDITION_MAX_MEMORY_BYTES',
    kind: 'integer',
    defaultValue: 200 * 1024 * 1024,
    min: 1,
    max: 16 * 1024 * 1024 * 1024,
    doc: 'The most memory one render (or image summary) may take: decoding its source (all of it where the format forces a whole-image decode: interlaced PNG, progressive JPEG, GIF, AVIF) and encoding the rendition (every frame of an animated one), estimated from the header before any decoding; a source over it answers 422 IMAGE_TOO_LARGE, remembered for that version.',
  },
  renditionConcurrency: {
    env: 'COFFER_RENDITION_CONCURRENCY',
    kind: 'integer',
    defaultValue: 2,
    min: 1,
    max: 64,
    doc: 'Renders that run at once in one process (each off the event loop, on libuv threads); the rest wait in the queue.',
  },
  renditionQueueLength: {
    env: 'COFFER_RENDITION_QUEUE_LENGTH',
    kind: 'integer',
    defaultValue: 32,
    min: 0,
    max: 10_000,
    doc: 'Renders that may wait for a free slot; past it, a request for a new rendition answers 503 RENDER_BUSY with Retry-After.',
  },
  renditionTimeoutSeconds: {
    env: 'COFFER_RENDITION_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 20,
    min: 1,
    max: maxTimerSeconds,
    doc: 'The longest one render may take once started; past it, 503 RENDER_BUSY.',
  },
  newRenditionsPerUserPerHour: {
    env: 'COFFER_NEW_RENDITIONS_PER_USER_PER_HOUR',
    kind: 'integer',
    defaultValue: 600,
    min: 0,
    max: 1_000_000,
    doc: 'Links to renditions not rendered yet that one user may ask for per hour (each may cost a render and its bytes); past it, 429 RATE_LIMITED. 0: no limit.',
  },
} as const satisfies Record<string, Setting>;
