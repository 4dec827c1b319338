/**
 * The phone media of issue 39's rows, made by the bench itself with Debian's tools (the tests'
 * fixtures, test/support/media-fixtures.ts, are thumbnails; these are a phone's sizes): a 12 MP
 * HEIC and a 1080p H.264 MP4. Made once per run, in the run's temp dir.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { largeJpeg } from '../../test/support/test-images.ts';

const run = promisify(execFile);

/**
 * A photo-like 12 MP HEIC (the rendition row's JPEG, grain and all, re-encoded) of about a
 * phone's size (1.7 MB at 12 MP). heif-enc's quality 50 with x265's ultrafast preset: slower
 * presets take 30 s of CPU and more for no difference the decoder sees but a few percent.
 */
export async function makePhotoHeic(dir: string, megapixels: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  const jpeg = path.join(dir, `photo-${megapixels}mp.jpg`);
  const heic = path.join(dir, `photo-${megapixels}mp.heic`);
  await writeFile(jpeg, await largeJpeg({ megapixels }));
  await run('/usr/bin/heif-enc', ['-q', '50', '-p', 'preset=ultrafast', '-o', heic, jpeg]);
  return heic;
}

/**
 * An H.264 + AAC MP4 of `seconds` at 30 frames a second, `height` lines in 16:9, at a phone's
 * bit rate for 1080p (17 Mbit/s) with a keyframe a second, as phones record. The picture is
 * ffmpeg's moving test pattern with grain, so that frames are not nearly free to decode.
 */
export async function makePhoneVideo(dir: string, options: { height: number; seconds: number }) {
  await mkdir(dir, { recursive: true });
  const { height, seconds } = options;
  const width = Math.round((height * 16) / 9 / 2) * 2;
  const mp4 = path.join(dir, `clip-${height}p.mp4`);
  const bitRate = Math.round((17e6 * (width * height)) / (1920 * 1080));
  await run('/usr/bin/ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=30,noise=alls=12:allf=t`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-b:v',
    String(bitRate),
    '-maxrate',
    String(Math.round(bitRate * 1.2)),
    '-bufsize',
    String(bitRate * 2),
    '-g',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    mp4,
  ]);
  return mp4;
}
