import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaFile, MediaLimits, VideoHeader } from '../domain/renditions/media-decoder.ts';
import { imageTooLarge, mediaUnreadable } from '../errors/errors.ts';
import { type MediaContext, readFilePrefix, toolAddressSpaceBytes } from './media-job.ts';
import { readVideoContainer, toMegapixels } from './probe-video.ts';
import { assertHeifPixels, readHeifLayout } from './read-heif-header.ts';

/** How far into a HEIF its `meta` box may lie (phones write it first, within a few KB). */
const heifHeaderBytes = 1024 * 1024;
/** Beyond the pixels: PNG's and JPEG's own structure, heif-convert's status lines. */
const slackBytes = 1024 * 1024;

/**
 * A HEIF's primary image, upright (libheif applies `irot` and `imir` itself), as JPEG, or PNG
 * when it has alpha. heif-convert writes every top-level image of a file with several
 * (`still-1.jpg`, `still-2.jpg`, …): the primary's is picked by its place among them.
 */
export async function decodeHeifStill(
  context: MediaContext,
  file: MediaFile,
  limits: MediaLimits,
): Promise<Buffer> {
  const layout = readHeifLayout(await readFilePrefix(file.path, heifHeaderBytes));
  if (!layout) throw mediaUnreadable('its header is not within its first MiB');
  assertHeifPixels(layout, limits);
  const extension = layout.hasAlpha ? 'png' : 'jpg';
  const maxBytes = layout.storedWidth * layout.storedHeight * 4 + slackBytes;
  return context.workspace.withJobDirectory(async (directory) => {
    const output = path.join(directory, `still.${extension}`);
    await context.runner.run({
      tool: context.tools.heifDecoder!,
      args: ['--quiet', ...(extension === 'jpg' ? ['-q', '92'] : []), file.path, output],
      cwd: directory,
      memoryBytes: limits.maxMemoryBytes + toolAddressSpaceBytes,
      timeoutSeconds: limits.timeoutSeconds,
      maxStdoutBytes: 64 * 1024,
      maxFileBytes: maxBytes,
    });
    const written =
      layout.topLevelCount > 1
        ? path.join(directory, `still-${layout.primaryIndex + 1}.${extension}`)
        : output;
    const names = await readdir(directory);
    if (!names.includes(path.basename(written))) throw mediaUnreadable('the decoder wrote no image');
    return readFile(written);
  });
}

/**
 * A video's frame at `atSeconds` (clamped to the clip; default 1 s, or 0 for a clip shorter than
 * 1 s), upright (ffmpeg applies the display matrix), as a JPEG of quality ~95 (`-q:v 2`). No
 * frame there (a short Live Photo clip whose duration overstates it): once more at 0.
 * JPEG, not an uncompressed PNG: ffmpeg encodes it for the same CPU, and a 1080p frame is then
 * ~120 KB instead of 6.2 MB, which cost the server a full garbage collection per poster
 * (docs/benchmarks.md, "Phone media"); libvips also decodes a JPEG shrunk for a thumbnail.
 */
export async function decodePoster(
  context: MediaContext,
  file: MediaFile,
  header: VideoHeader,
  options: { limits: MediaLimits; atSeconds?: number },
): Promise<Buffer> {
  const { limits } = options;
  const pixels = header.width * header.height;
  if (pixels > limits.maxPixels)
    throw imageTooLarge(
      `its frames have ${toMegapixels(pixels)} megapixels, the limit is ${toMegapixels(limits.maxPixels)}`,
    );
  const container = await readVideoContainer(file);
  const seconds = toPosterSeconds(header.durationSeconds, options.atSeconds);
  const frameAt = (at: number) =>
    context.workspace.withJobDirectory((directory) =>
      context.runner.run({
        tool: context.tools.ffmpeg!,
        // -ss before -i seeks in the demuxer; 8-bit full-range YUV is what the JPEG encoder
        // takes (10-bit HEVC included), and the cap below holds the output to the frame's size.
        args: [
          '-nostdin',
          '-v',
          'error',
          '-threads',
          '1',
          '-filter_threads',
          '1',
          '-protocol_whitelist',
          'file,pipe',
          '-f',
          container,
          '-ss',
          at.toFixed(3),
          '-i',
          `file:${file.path}`,
          '-frames:v',
          '1',
          '-an',
          '-sn',
          '-dn',
          '-pix_fmt',
          'yuvj420p',
          '-f',
          'image2pipe',
          '-c:v',
          'mjpeg',
          '-q:v',
          '2',
          'pipe:1',
        ],
        cwd: directory,
        memoryBytes: limits.maxMemoryBytes + toolAddressSpaceBytes,
        timeoutSeconds: limits.timeoutSeconds,
        maxStdoutBytes: pixels * 3 + header.height + slackBytes,
      }),
    );
  let frame = await frameAt(seconds);
  if (frame.length === 0 && seconds > 0) frame = await frameAt(0);
  if (frame.length === 0) throw mediaUnreadable('it has no frame to show');
  return frame;
}

/** The moment of the poster: asked for (within the clip), else 1 s, else 0 for a shorter clip. */
export function toPosterSeconds(durationSeconds: number, atSeconds?: number): number {
  const wanted = atSeconds ?? 1;
  if (durationSeconds <= 0) return Math.max(0, wanted);
  if (atSeconds === undefined && durationSeconds < 1) return 0;
  // The last frame starts before the end: a moment at or past the end would find none.
  return Math.max(0, Math.min(wanted, durationSeconds - 0.1));
}
