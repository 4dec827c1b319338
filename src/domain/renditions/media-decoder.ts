/**
 * Phone media (issue 39): HEIC/HEIF photos and videos, which no decoder inside the server process
 * may touch. Implemented in src/media/ over Debian's libheif (`heif-convert`) and ffmpeg
 * (`ffprobe`, `ffmpeg`), each run as a child process with a time limit, a memory limit, no shell,
 * no inherited environment and no protocol but the local file Coffer names.
 */

/** The kinds of media this decoder takes, told from their bytes (sniffMediaKind). */
export type MediaKind = 'heif' | 'video';

/** A HEIF/HEIC still's header, read from the box structure without decoding a pixel. */
export type HeifHeader = {
  kind: 'heif';
  /** As displayed: a 90° or 270° `irot` of the primary image swaps the stored sides. */
  width: number;
  height: number;
};

/** What `ffprobe` tells of a video's first video stream and its container. */
export type VideoHeader = {
  kind: 'video';
  /** As displayed: a 90° or 270° rotation (display matrix, or the `rotate` tag) swaps the sides. */
  width: number;
  height: number;
  /** The container's duration (else the video stream's), in seconds; 0 when it tells none. */
  durationSeconds: number;
  /** ffprobe's codec_name: `h264`, `hevc`, `vp8`, `vp9`, `av1`, … */
  videoCodec: string;
  /** The first audio stream's codec_name (`aac`, `opus`, …); null when there is none. */
  audioCodec: string | null;
};

export type MediaHeader = HeifHeader | VideoHeader;

/**
 * A local file the tools may read: a disk store's version file as it is, or a private copy of
 * (a bounded window of) a stored version that has none; `release()` removes a copy.
 */
export type MediaFile = { path: string; release(): Promise<void> };

/** The bounds of one job (the rendition settings, and the project's maxVideoSeconds). */
export type MediaLimits = {
  /** Width × height of the still (a video counts its frame's pixels). */
  maxPixels: number;
  /** The address space one tool may take (prlimit --as). */
  maxMemoryBytes: number;
  /** Wall time of one tool run; past it the tool is killed: MEDIA_UNREADABLE. */
  timeoutSeconds: number;
};

/**
 * Decodes phone media in a box. Every method answers 422 MEDIA_UNREADABLE for bytes the tool
 * refuses, crashes on, or takes longer than the time limit with (the tool is killed; the server
 * goes on), and 422 IMAGE_TOO_LARGE for declared dimensions over `maxPixels`, before any decode.
 */
export interface MediaDecoder {
  /** Whether the tools this kind needs were found at startup (else its renditions are 415). */
  supports(kind: MediaKind): boolean;
  /**
   * A HEIF's header from its first bytes (the `meta` box: primary item, `ispe`, `irot`, a grid's
   * output size); undefined when the bytes end before the header does.
   */
  readHeifHeader(prefix: Buffer, limits: Pick<MediaLimits, 'maxPixels'>): HeifHeader | undefined;
  /** A video's header, by ffprobe of the local file. */
  probeVideo(file: MediaFile, limits: MediaLimits): Promise<VideoHeader>;
  /**
   * The still to render, upright, as image bytes sharp reads (PNG or JPEG): a HEIF's primary
   * image (the first of a sequence), or a video's frame at `atSeconds` (the first frame when the
   * clip is shorter; clamped to the clip).
   */
  decodeStill(file: MediaFile, header: MediaHeader, limits: MediaLimits, atSeconds?: number): Promise<Buffer>;
}
