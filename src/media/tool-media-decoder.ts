import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type {
  HeifHeader,
  MediaDecoder,
  MediaFile,
  MediaHeader,
  MediaKind,
  MediaLimits,
  VideoHeader,
} from '../domain/renditions/media-decoder.ts';
import { unsupportedMedia } from '../errors/errors.ts';
import { decodeHeifStill, decodePoster } from './decode-still.ts';
import { openMediaFile, type StoredMedia } from './media-files.ts';
import type { MediaContext } from './media-job.ts';
import { findMediaTools, type MediaToolSettings, type MediaTools } from './media-tools.ts';
import { MediaWorkspace } from './media-workspace.ts';
import { probeVideo } from './probe-video.ts';
import { readHeifHeader } from './read-heif-header.ts';
import { type MediaLog, ToolRunner } from './tool-runner.ts';

/**
 * MediaDecoder over Debian's tools, each run in a box (tool-runner.ts): libheif's heif-convert
 * (or heif-dec) for HEIF stills, ffprobe and ffmpeg for videos. The HEIF header is read here, in
 * TypeScript, so a forged size is refused before any tool runs.
 */
export class ToolMediaDecoder implements MediaDecoder {
  readonly #context: MediaContext;

  constructor(context: MediaContext) {
    this.#context = context;
  }

  supports(kind: MediaKind): boolean {
    const { prlimit, heifDecoder, ffmpeg, ffprobe } = this.#context.tools;
    // Without prlimit no tool runs: never unboxed.
    if (!prlimit) return false;
    return kind === 'heif' ? heifDecoder !== undefined : ffmpeg !== undefined && ffprobe !== undefined;
  }

  readHeifHeader(prefix: Buffer, limits: Pick<MediaLimits, 'maxPixels'>): HeifHeader | undefined {
    return readHeifHeader(prefix, limits);
  }

  async probeVideo(file: MediaFile, limits: MediaLimits): Promise<VideoHeader> {
    this.#assertSupported('video');
    return probeVideo(this.#context, file, limits);
  }

  decodeStill(
    file: MediaFile,
    header: MediaHeader,
    limits: MediaLimits,
    atSeconds?: number,
  ): Promise<Buffer> {
    this.#assertSupported(header.kind);
    return header.kind === 'heif'
      ? decodeHeifStill(this.#context, file, limits)
      : decodePoster(this.#context, file, header, { limits, atSeconds });
  }

  /** openMediaFile with its copies in this decoder's private directory (removed on close). */
  async openFile(
    blobs: BlobStore,
    media: StoredMedia,
    options: { windowBytes: number; signal?: AbortSignal },
  ): Promise<MediaFile> {
    return openMediaFile(blobs, media, { ...options, dir: await this.#context.workspace.directory() });
  }

  /** Kills the tools still running and removes the process's temp directory. */
  async close(): Promise<void> {
    this.#context.runner.close();
    await this.#context.workspace.close();
  }

  #assertSupported(kind: MediaKind): void {
    if (!this.supports(kind)) throw unsupportedMedia(kind === 'heif' ? 'This HEIC/HEIF photo' : 'This video');
  }
}

/**
 * The decoder the wiring builds once per process: the tools resolved now (a missing one is
 * logged once and turns its kind off), temp files under `tempRoot` (default the OS's).
 */
export function createMediaDecoder(
  settings: MediaToolSettings,
  options: { log: MediaLog; tempRoot?: string; searchPath?: string },
): ToolMediaDecoder {
  const tools = findMediaTools(settings, options.searchPath ?? process.env.PATH ?? '/usr/bin:/bin');
  const missing = missingTools(tools, settings);
  if (missing.length > 0)
    options.log.warn(
      { missing },
      `Media tools not found (${missing.join(', ')}): their media are not rendered (415)`,
    );
  return new ToolMediaDecoder({
    tools,
    runner: new ToolRunner({ prlimitPath: tools.prlimit ?? '/usr/bin/prlimit', log: options.log }),
    workspace: new MediaWorkspace(options.tempRoot),
  });
}

function missingTools(tools: MediaTools, settings: MediaToolSettings): string[] {
  const missing: string[] = [];
  if (!tools.prlimit) missing.push('prlimit (util-linux)');
  if (!tools.ffmpeg) missing.push(`${settings.ffmpegPath} (COFFER_FFMPEG_PATH)`);
  if (!tools.ffprobe) missing.push(`${settings.ffprobePath} (COFFER_FFPROBE_PATH)`);
  if (!tools.heifDecoder)
    missing.push(`${settings.heifDecoderPath ?? 'heif-dec or heif-convert'} (COFFER_HEIF_DECODER_PATH)`);
  return missing;
}
