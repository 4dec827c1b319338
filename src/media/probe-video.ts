import type { MediaFile, MediaLimits, VideoHeader } from '../domain/renditions/media-decoder.ts';
import { sniffVideoContainer, type VideoContainer } from '../domain/renditions/sniff-media-kind.ts';
import { imageTooLarge, mediaUnreadable } from '../errors/errors.ts';
import { type MediaContext, readFilePrefix, toolAddressSpaceBytes } from './media-job.ts';

/** ffprobe's answer for a few streams is a few KB; anything near this is not a video's. */
const maxProbeOutputBytes = 1024 * 1024;

/** Only what the header needs: ffprobe then prints no tag text taken from the file but `rotate`. */
const probeEntries =
  'stream=codec_type,codec_name,width,height,duration:stream_disposition=attached_pic:stream_tags=rotate:stream_side_data=rotation:format=duration';

/**
 * The container of a local video file from its first bytes: ffmpeg's demuxer is forced to it, so
 * bytes cannot select a playlist, concat or any other demuxer (issue 39, Rules).
 */
export async function readVideoContainer(file: MediaFile): Promise<VideoContainer> {
  const container = sniffVideoContainer(await readFilePrefix(file.path, 64));
  if (!container) throw mediaUnreadable('it is not an MP4, MOV or WebM file');
  return container;
}

/** The video's header, by ffprobe; IMAGE_TOO_LARGE when its frames are over `maxPixels`. */
export async function probeVideo(
  context: MediaContext,
  file: MediaFile,
  limits: MediaLimits,
): Promise<VideoHeader> {
  const container = await readVideoContainer(file);
  const output = await context.workspace.withJobDirectory((directory) =>
    context.runner.run({
      tool: context.tools.ffprobe!,
      args: [
        '-v',
        'error',
        '-threads',
        '1',
        '-protocol_whitelist',
        'file',
        '-f',
        container,
        '-show_entries',
        probeEntries,
        '-of',
        'json',
        `file:${file.path}`,
      ],
      cwd: directory,
      memoryBytes: limits.maxMemoryBytes + toolAddressSpaceBytes,
      timeoutSeconds: limits.timeoutSeconds,
      maxStdoutBytes: maxProbeOutputBytes,
    }),
  );
  const header = toVideoHeader(output);
  const pixels = header.width * header.height;
  if (pixels > limits.maxPixels)
    throw imageTooLarge(
      `its frames have ${toMegapixels(pixels)} megapixels, the limit is ${toMegapixels(limits.maxPixels)}`,
    );
  return header;
}

type ProbedStream = {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
};

/** ffprobe's JSON → the header: the first video stream that is not cover art, the first audio stream. */
export function toVideoHeader(output: Buffer): VideoHeader {
  let probed: { streams?: ProbedStream[]; format?: { duration?: string } };
  try {
    probed = JSON.parse(output.toString('utf8'));
  } catch {
    throw mediaUnreadable('its description could not be read');
  }
  const streams = Array.isArray(probed.streams) ? probed.streams : [];
  const video = streams.find(
    (stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic !== 1,
  );
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const { width, height } = video ?? {};
  if (!video || !isSide(width) || !isSide(height)) throw mediaUnreadable('it has no video stream');
  const isTurned = toQuarterTurns(video) % 2 === 1;
  return {
    kind: 'video',
    width: isTurned ? height : width,
    height: isTurned ? width : height,
    durationSeconds: toSeconds(probed.format?.duration) ?? toSeconds(video.duration) ?? 0,
    videoCodec: toCodecName(video.codec_name),
    audioCodec: audio ? toCodecName(audio.codec_name) : null,
  };
}

/** The display matrix's rotation (ffmpeg ≥ 5), else the older `rotate` tag, in quarter turns. */
function toQuarterTurns(stream: ProbedStream): number {
  const rotation =
    stream.side_data_list?.find((data) => typeof data.rotation === 'number')?.rotation ??
    Number(stream.tags?.rotate ?? 0);
  return Number.isFinite(rotation) ? ((Math.round(rotation / 90) % 4) + 4) % 4 : 0;
}

const isSide = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

function toSeconds(text: string | undefined): number | undefined {
  const seconds = Number(text);
  return text !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** ffmpeg's own codec names (`h264`, `hevc`, `vp9`, `aac`, …); anything else is not passed on. */
function toCodecName(name: string | undefined): string {
  return name && /^[a-z0-9_]{1,32}$/.test(name) ? name : 'unknown';
}

export function toMegapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10);
}
