import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { extractTile, withForgedSize, writeHeif } from './heif-writer.ts';

// Phone media for the tests (issue 39), made by the tests themselves with Debian's tools (.ci/run
// installs them): HEIC by heif-enc, then rewritten box by box where heif-enc cannot (a tiled grid,
// an `irot`, two images); videos by ffmpeg. Every picture shows one scene, four coloured
// quadrants (readQuadrants), so a test can tell an upright decode from a turned or mirrored one.

const tools = ['ffmpeg', 'ffprobe', 'heif-enc', 'heif-convert'];

/** Why a media suite skips (the Debian tools are missing), or false when it runs. */
export const skipWithoutMediaTools: string | false = tools.every((tool) => existsSync(`/usr/bin/${tool}`))
  ? false
  : 'ffmpeg or libheif-examples is not installed (apt-get install ffmpeg libheif-examples)';

export type Colour = 'red' | 'green' | 'blue' | 'yellow' | 'black';
export type Quadrants = { topLeft: Colour; topRight: Colour; bottomLeft: Colour; bottomRight: Colour };

/** The scene as displayed, upright. */
export const upright: Quadrants = {
  topLeft: 'red',
  topRight: 'green',
  bottomLeft: 'blue',
  bottomRight: 'yellow',
};

const rgb: Record<Colour, readonly [number, number, number]> = {
  red: [220, 30, 30],
  green: [30, 180, 60],
  blue: [30, 60, 200],
  yellow: [230, 210, 40],
  black: [0, 0, 0],
};

/** The colour at the centre of each quadrant of a decoded image (any EXIF orientation not applied). */
export async function readQuadrants(image: Buffer): Promise<Quadrants> {
  const { data, info } = await sharp(image, { autoOrient: false })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): Colour => {
    const offset = (Math.floor(y * info.height) * info.width + Math.floor(x * info.width)) * info.channels;
    const pixel = [data[offset]!, data[offset + 1]!, data[offset + 2]!];
    const distance = (colour: Colour) =>
      rgb[colour].reduce((sum, value, index) => sum + (value - pixel[index]!) ** 2, 0);
    return (Object.keys(rgb) as Colour[]).reduce((best, colour) =>
      distance(colour) < distance(best) ? colour : best,
    );
  };
  return {
    topLeft: at(0.25, 0.25),
    topRight: at(0.75, 0.25),
    bottomLeft: at(0.25, 0.75),
    bottomRight: at(0.75, 0.75),
  };
}

/** The scene at `width`×`height` as a PNG, turned `clockwiseDegrees` (what a player turns back). */
export async function scenePng(width: number, height: number, clockwiseDegrees = 0): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const quadrant =
        `${y < height / 2 ? 'top' : 'bottom'}${x < width / 2 ? 'Left' : 'Right'}` as keyof Quadrants;
      pixels.set(rgb[upright[quadrant]], (y * width + x) * 3);
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .rotate(clockwiseDegrees)
    .png()
    .toBuffer();
}

/** What each fixture is, as the decoder must tell it. */
export type MediaFixtures = {
  dir: string;
  /** heif-enc's own output, 96×64. */
  heic: string;
  /** Four 64×64 tiles (red, green, blue, yellow) in a 2×2 grid cropped to 128×112. */
  gridHeic: string;
  /** Stored 64×48 (a 1×1 grid over a 64×64 tile) with `irot` 1: displays 48×64. */
  rotatedHeic: string;
  /** Two images, the first (the scene, 64×64) primary, the second all green. */
  twoImageHeif: string;
  /** Two images, the first all green, the second (the scene, 64×64) primary. */
  secondPrimaryHeif: string;
  /** heif-enc's output with every `ispe` claiming 100,000×100,000. */
  forgedHeic: string;
  /** H.264 + AAC, 160×96, 2 s; its title tag (`mediaTitle`) reads like options and a path. */
  h264Mp4: string;
  /** HEVC in MOV, stored 96×160 with a display matrix turning it 90° clockwise: 160×96, 2 s, no audio. */
  hevcMov: string;
  /** VP9 + Opus in WebM, 160×96, 2 s. */
  vp9Webm: string;
  /** VP8 in WebM, 160×96, 2 s, no audio. */
  vp8Webm: string;
  /** AV1 in WebM, 160×96, 2 s, no audio. */
  av1Webm: string;
  /** H.264, 160×96, 0.5 s, no audio. */
  shortClip: string;
  /** Three 32×24 frames: red 100 ms, green 200 ms, blue 300 ms, looping. */
  animatedGif: string;
  /** The first 60% of h264Mp4 (its `moov` is at the end: gone). */
  truncatedMp4: string;
};

/** The H.264 fixture's title: nothing of it may reach a tool's argv. */
export const mediaTitle = '-i file:/etc/passwd -f concat';

let made: Promise<MediaFixtures> | undefined;

/** The fixtures, made once per process in a temp dir removed at exit. */
export function mediaFixtures(): Promise<MediaFixtures> {
  made ??= makeFixtures();
  return made;
}

async function makeFixtures(): Promise<MediaFixtures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-media-fixtures-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string) => path.join(dir, name);
  const run = (tool: string, args: string[]) => execFileSync(`/usr/bin/${tool}`, args, { stdio: 'pipe' });
  const heifEncode = async (png: Buffer, name: string) => {
    writeFileSync(file(`${name}.png`), png);
    run('heif-enc', ['-q', '90', '-o', file(`${name}.heic`), file(`${name}.png`)]);
    return readFileSync(file(`${name}.heic`));
  };
  const solid = (colour: Colour) =>
    sharp({ create: { width: 64, height: 64, channels: 3, background: toRgb(colour) } })
      .png()
      .toBuffer();

  const heic = await heifEncode(await scenePng(96, 64), 'heic');
  const tiles = await Promise.all(
    (['red', 'green', 'blue', 'yellow'] as const).map(async (colour) =>
      extractTile(await heifEncode(await solid(colour), colour)),
    ),
  );
  writeFileSync(
    file('grid.heic'),
    writeHeif({ images: tiles, grid: { rows: 2, columns: 2, width: 128, height: 112 } }),
  );
  // Displayed 48×64; stored turned a quarter clockwise (64×48), in a 64×64 tile that the grid crops.
  const turned = await sharp(await scenePng(48, 64, 90))
    .extend({ bottom: 16, background: 'black' })
    .png()
    .toBuffer();
  const turnedTile = extractTile(await heifEncode(turned, 'turned'));
  writeFileSync(
    file('rotated.heic'),
    writeHeif({
      images: [turnedTile],
      grid: { rows: 1, columns: 1, width: 64, height: 48 },
      quarterTurns: 1,
    }),
  );
  const sceneTile = extractTile(await heifEncode(await scenePng(64, 64), 'scene'));
  writeFileSync(file('two.heif'), writeHeif({ images: [sceneTile, tiles[1]!], primaryIndex: 0 }));
  writeFileSync(file('second.heif'), writeHeif({ images: [tiles[1]!, sceneTile], primaryIndex: 1 }));
  writeFileSync(file('forged.heic'), withForgedSize(heic, 100_000, 100_000));

  writeFileSync(file('scene.png'), await scenePng(160, 96));
  writeFileSync(file('scene-stored-turned.png'), await scenePng(160, 96, -90));
  const still = (png: string, seconds: number) => [
    '-loop',
    '1',
    '-framerate',
    '10',
    '-t',
    String(seconds),
    '-i',
    file(png),
  ];
  const tone = ['-f', 'lavfi', '-t', '2', '-i', 'sine=frequency=440:sample_rate=48000'];
  const ffmpeg = (args: string[]) => run('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
  ffmpeg([
    ...still('scene.png', 2),
    ...tone,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file('h264.mp4'),
  ]);
  // ffmpeg 5.1 drops a `rotate` tag given while encoding; remuxing with -c copy writes it as the
  // track's display matrix, and `rotate=270` is a phone's portrait: ffprobe reads rotation -90
  // (a quarter clockwise to display), as it does for an iPhone's portrait video.
  ffmpeg([
    ...still('scene-stored-turned.png', 2),
    '-c:v',
    'libx265',
    '-x265-params',
    'log-level=error',
    '-pix_fmt',
    'yuv420p',
    '-tag:v',
    'hvc1',
    file('hevc-unturned.mov'),
  ]);
  ffmpeg(['-i', file('hevc-unturned.mov'), '-c', 'copy', '-metadata:s:v:0', 'rotate=270', file('hevc.mov')]);
  const probed = run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file('hevc.mov')]).toString();
  if (JSON.parse(probed).streams[0].side_data_list?.[0]?.rotation !== -90)
    throw new Error('ffmpeg wrote no display matrix of -90° into the HEVC fixture');
  ffmpeg([
    ...still('scene.png', 2),
    ...tone,
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'libopus',
    '-shortest',
    file('vp9.webm'),
  ]);
  ffmpeg([
    ...still('scene.png', 2),
    '-c:v',
    'libvpx',
    '-b:v',
    '200k',
    '-pix_fmt',
    'yuv420p',
    file('vp8.webm'),
  ]);
  // AV1 as phones and browsers now record it; libaom's fastest preset keeps the fixture quick.
  const av1 = ['-c:v', 'libaom-av1', '-cpu-used', '8', '-row-mt', '1', '-b:v', '100k'];
  ffmpeg([...still('scene.png', 2), ...av1, '-pix_fmt', 'yuv420p', file('av1.webm')]);
  ffmpeg([...still('scene.png', 0.5), '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file('short.mp4')]);
  const frames = await Promise.all(
    (['red', 'green', 'blue'] as const).map((colour) =>
      sharp({ create: { width: 32, height: 24, channels: 3, background: toRgb(colour) } })
        .png()
        .toBuffer(),
    ),
  );
  writeFileSync(
    file('animated.gif'),
    await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 200, 300], loop: 0 })
      .toBuffer(),
  );
  const mp4 = readFileSync(file('h264.mp4'));
  writeFileSync(file('truncated.mp4'), mp4.subarray(0, Math.floor(mp4.length * 0.6)));
  return {
    dir,
    heic: file('heic.heic'),
    gridHeic: file('grid.heic'),
    rotatedHeic: file('rotated.heic'),
    twoImageHeif: file('two.heif'),
    secondPrimaryHeif: file('second.heif'),
    forgedHeic: file('forged.heic'),
    h264Mp4: file('h264.mp4'),
    hevcMov: file('hevc.mov'),
    vp9Webm: file('vp9.webm'),
    vp8Webm: file('vp8.webm'),
    av1Webm: file('av1.webm'),
    shortClip: file('short.mp4'),
    animatedGif: file('animated.gif'),
    truncatedMp4: file('truncated.mp4'),
  };
}

const toRgb = (colour: Colour) => {
  const [r, g, b] = rgb[colour];
  return { r, g, b };
};
