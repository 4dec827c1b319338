import type { Setting } from '../setting.ts';

/**
 * Phone media (issue 39): the tools that decode HEIC photos and videos in child processes
 * (src/media/). Each is resolved to an absolute path at start; one that is missing turns off its
 * kind of media (its renditions answer 415 UNSUPPORTED_MEDIA), logged once, and never stops the
 * server from starting.
 */
export const mediaSettings = {
  ffmpegPath: {
    env: 'COFFER_FFMPEG_PATH',
    kind: 'string',
    defaultValue: 'ffmpeg',
    doc: "The ffmpeg program that takes videos' poster frames (a bare name is looked up on PATH at start); run with a time and memory limit, no shell and no inherited environment.",
  },
  ffprobePath: {
    env: 'COFFER_FFPROBE_PATH',
    kind: 'string',
    defaultValue: 'ffprobe',
    doc: "The ffprobe program that reads videos' dimensions, duration, codecs and rotation (looked up as COFFER_FFMPEG_PATH is).",
  },
  heifDecoderPath: {
    env: 'COFFER_HEIF_DECODER_PATH',
    kind: 'string',
    doc: "libheif's command-line decoder for HEIC/HEIF photos; default: `heif-dec`, else `heif-convert` (Debian's libheif-examples), looked up as COFFER_FFMPEG_PATH is.",
  },
} as const satisfies Record<string, Setting>;
