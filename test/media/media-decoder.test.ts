import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { MediaFile, MediaLimits, VideoHeader } from '../../src/domain/renditions/media-decoder.ts';
import { sniffMediaKind } from '../../src/domain/renditions/sniff-media-kind.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { createMediaDecoder, type ToolMediaDecoder } from '../../src/media/tool-media-decoder.ts';
import { FakeMediaTools } from '../support/fake-media-tools.ts';
import {
  type MediaFixtures,
  mediaFixtures,
  mediaTitle,
  readQuadrants,
  skipWithoutMediaTools,
  upright,
} from '../support/media-fixtures.ts';

// Phone media through Debian's tools in their box (issue 39): each fixture decodes upright at
// its displayed size, videos probe exactly, and bad or hostile files end with a 422.

const limits: MediaLimits = { maxPixels: 50_000_000, maxMemoryBytes: 200 * 1024 * 1024, timeoutSeconds: 20 };
const defaultTools = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', heifDecoderPath: undefined };
const asFile = (path: string): MediaFile => ({ path, release: async () => {} });
const quietLog = { warn: () => {} };

const rejectsWith = (code: string) => (error: unknown) => {
  assert.ok(error instanceof AppError, String(error));
  assert.equal(error.code, code);
  return true;
};

describe('ToolMediaDecoder', { skip: skipWithoutMediaTools }, () => {
  let fixtures: MediaFixtures;
  let decoder: ToolMediaDecoder;
  const fakes = new FakeMediaTools();
  before(async () => {
    fixtures = await mediaFixtures();
    decoder = createMediaDecoder(defaultTools, { log: quietLog, searchPath: '/usr/bin:/bin' });
  });
  after(async () => {
    await decoder.close();
    fakes.remove();
  });

  const decodeHeif = async (file: string) => {
    const header = decoder.readHeifHeader(readFileSync(file), limits);
    assert.ok(header);
    return { header, still: await decoder.decodeStill(asFile(file), header, limits) };
  };

  it('supports both kinds when the tools are installed', () => {
    assert.equal(decoder.supports('heif'), true);
    assert.equal(decoder.supports('video'), true);
  });

  for (const [name, width, height] of [
    ['heic', 96, 64],
    ['gridHeic', 128, 112],
    ['rotatedHeic', 48, 64],
    ['twoImageHeif', 64, 64],
    ['secondPrimaryHeif', 64, 64],
  ] as const)
    it(`${name}: its header tells the displayed size, and it decodes upright at that size`, async () => {
      assert.equal(sniffMediaKind(readFileSync(fixtures[name])), 'heif');
      const { header, still } = await decodeHeif(fixtures[name]);
      assert.deepEqual(header, { kind: 'heif', width, height });
      const metadata = await sharp(still).metadata();
      assert.deepEqual([metadata.width, metadata.height], [width, height]);
      // Upright as decoded: no EXIF orientation left for sharp to apply again.
      assert.equal(metadata.orientation ?? 1, 1);
      assert.deepEqual(await readQuadrants(still), upright);
    });

  it('a HEIC header cut before its meta box ends: undefined (more bytes needed)', () => {
    const bytes = readFileSync(fixtures.heic);
    assert.equal(decoder.readHeifHeader(bytes.subarray(0, 100), limits), undefined);
  });

  it('a forged 100,000×100,000 HEIC: IMAGE_TOO_LARGE from its header, before any tool runs', async () => {
    const marker = fakes.file('heif-decoder-ran');
    const heifDecoderPath = fakes.script('heif-decoder', `touch ${marker}; exec /usr/bin/heif-convert "$@"`);
    const watched = createMediaDecoder({ ...defaultTools, heifDecoderPath }, { log: quietLog });
    try {
      const bytes = readFileSync(fixtures.forgedHeic);
      assert.throws(() => watched.readHeifHeader(bytes, limits), rejectsWith('IMAGE_TOO_LARGE'));
      const header = { kind: 'heif' as const, width: 64, height: 64 };
      await assert.rejects(
        watched.decodeStill(asFile(fixtures.forgedHeic), header, limits),
        rejectsWith('IMAGE_TOO_LARGE'),
      );
      assert.equal(existsSync(marker), false);
    } finally {
      await watched.close();
    }
  });

  const videos: [keyof MediaFixtures, Omit<VideoHeader, 'kind'>][] = [
    ['h264Mp4', { width: 160, height: 96, durationSeconds: 2, videoCodec: 'h264', audioCodec: 'aac' }],
    // Stored 96×160, with a display matrix turning it a quarter clockwise.
    ['hevcMov', { width: 160, height: 96, durationSeconds: 2, videoCodec: 'hevc', audioCodec: null }],
    ['vp9Webm', { width: 160, height: 96, durationSeconds: 2.008, videoCodec: 'vp9', audioCodec: 'opus' }],
    ['shortClip', { width: 160, height: 96, durationSeconds: 0.5, videoCodec: 'h264', audioCodec: null }],
  ];
  for (const [name, expected] of videos)
    it(`${name}: probed exactly, and its poster is upright at the displayed size`, async () => {
      const file = asFile(fixtures[name]);
      assert.equal(sniffMediaKind(readFileSync(file.path)), 'video');
      const header = await decoder.probeVideo(file, limits);
      assert.deepEqual(header, { kind: 'video', ...expected });
      const still = await decoder.decodeStill(file, header, limits);
      const metadata = await sharp(still).metadata();
      assert.deepEqual(
        [metadata.format, metadata.width, metadata.height],
        ['jpeg', expected.width, expected.height],
      );
      assert.deepEqual(await readQuadrants(still), upright);
    });

  it('a poster at a moment past the end is the clip’s last moment; at 0, the first frame', async () => {
    const file = asFile(fixtures.h264Mp4);
    const header = await decoder.probeVideo(file, limits);
    for (const atSeconds of [0, 1.5, 5, 86_400])
      assert.deepEqual(
        await readQuadrants(await decoder.decodeStill(file, header, limits, atSeconds)),
        upright,
      );
  });

  it('a video whose duration overstates it: the poster falls back to the first frame', async () => {
    const file = asFile(fixtures.shortClip);
    const header = await decoder.probeVideo(file, limits);
    const still = await decoder.decodeStill(file, { ...header, durationSeconds: 30 }, limits, 20);
    assert.deepEqual(await readQuadrants(still), upright);
  });

  it('a truncated MP4: MEDIA_UNREADABLE', async () => {
    await assert.rejects(
      decoder.probeVideo(asFile(fixtures.truncatedMp4), limits),
      rejectsWith('MEDIA_UNREADABLE'),
    );
    const header: VideoHeader = {
      kind: 'video',
      width: 160,
      height: 96,
      durationSeconds: 2,
      videoCodec: 'h264',
      audioCodec: 'aac',
    };
    await assert.rejects(
      decoder.decodeStill(asFile(fixtures.truncatedMp4), header, limits),
      rejectsWith('MEDIA_UNREADABLE'),
    );
  });

  it('a file that is no video container (an animated GIF): MEDIA_UNREADABLE, no demuxer guessed', async () => {
    assert.equal(sniffMediaKind(readFileSync(fixtures.animatedGif)), undefined);
    await assert.rejects(
      decoder.probeVideo(asFile(fixtures.animatedGif), limits),
      rejectsWith('MEDIA_UNREADABLE'),
    );
  });

  it('a video over the pixel limit: IMAGE_TOO_LARGE, and no frame decoded', async () => {
    const marker = fakes.file('ffmpeg-ran');
    const ffmpegPath = fakes.script('ffmpeg', `touch ${marker}; exec /usr/bin/ffmpeg "$@"`);
    const watched = createMediaDecoder({ ...defaultTools, ffmpegPath }, { log: quietLog });
    try {
      const small = { ...limits, maxPixels: 160 * 96 - 1 };
      const file = asFile(fixtures.h264Mp4);
      await assert.rejects(watched.probeVideo(file, small), rejectsWith('IMAGE_TOO_LARGE'));
      const header = await watched.probeVideo(file, limits);
      await assert.rejects(watched.decodeStill(file, header, small), rejectsWith('IMAGE_TOO_LARGE'));
      assert.equal(existsSync(marker), false);
    } finally {
      await watched.close();
    }
  });

  it('a decoder made to hang is killed at the time limit: MEDIA_UNREADABLE', async () => {
    const hanging = createMediaDecoder(
      {
        ...defaultTools,
        heifDecoderPath: fakes.script('hanging-heif', 'sleep 60'),
        ffprobePath: fakes.script('hanging-probe', 'sleep 60'),
      },
      { log: quietLog },
    );
    const quick = { ...limits, timeoutSeconds: 1 };
    try {
      const started = Date.now();
      const header = decoder.readHeifHeader(readFileSync(fixtures.heic), limits)!;
      await assert.rejects(
        hanging.decodeStill(asFile(fixtures.heic), header, quick),
        rejectsWith('MEDIA_UNREADABLE'),
      );
      await assert.rejects(
        hanging.probeVideo(asFile(fixtures.h264Mp4), quick),
        rejectsWith('MEDIA_UNREADABLE'),
      );
      assert.ok(Date.now() - started < 60_000, 'the tools were killed, not waited for');
    } finally {
      await hanging.close();
    }
  });

  it("no argv holds anything from the media's bytes: the tools get Coffer's options and paths only", async () => {
    const argvLog = fakes.file('argv.log');
    const recording = (tool: string) =>
      fakes.script(`recording-${tool}`, `printf '%s\\n' "$@" >> ${argvLog}; exec /usr/bin/${tool} "$@"`);
    const watched = createMediaDecoder(
      {
        ffmpegPath: recording('ffmpeg'),
        ffprobePath: recording('ffprobe'),
        heifDecoderPath: recording('heif-convert'),
      },
      { log: quietLog },
    );
    try {
      const file = asFile(fixtures.h264Mp4);
      await watched.decodeStill(file, await watched.probeVideo(file, limits), limits);
      const header = watched.readHeifHeader(readFileSync(fixtures.heic), limits)!;
      await watched.decodeStill(asFile(fixtures.heic), header, limits);
      const argv = readFileSync(argvLog, 'utf8').trim().split('\n');
      assert.ok(!argv.some((arg) => arg.includes(mediaTitle) || arg.includes('/etc/passwd')));
      // Every argument is one of Coffer's options or values, the input it named, or its own output.
      const inputs = [`file:${fixtures.h264Mp4}`, fixtures.heic];
      const known =
        /^(-{1,2}[a-z_:]+|error|1|file|file,pipe|mov|json|image2pipe|mjpeg|yuvj420p|2|0|pipe:1|92|\d+\.\d{3}|[a-z_,=:]+)$/;
      for (const arg of argv)
        assert.ok(known.test(arg) || inputs.includes(arg) || /\/job-\d+\/still\.jpg$/.test(arg), arg);
    } finally {
      await watched.close();
    }
  });

  it('a missing tool: that kind is not supported (415 UNSUPPORTED_MEDIA), the other still is', async () => {
    const warnings: string[] = [];
    const partial = createMediaDecoder(
      { ...defaultTools, ffmpegPath: '/nonexistent/ffmpeg' },
      { log: { warn: (_details, message) => warnings.push(message) } },
    );
    try {
      assert.equal(partial.supports('video'), false);
      assert.equal(partial.supports('heif'), true);
      assert.match(warnings.join('\n'), /\/nonexistent\/ffmpeg \(COFFER_FFMPEG_PATH\)/);
      await assert.rejects(
        partial.probeVideo(asFile(fixtures.h264Mp4), limits),
        rejectsWith('UNSUPPORTED_MEDIA'),
      );
    } finally {
      await partial.close();
    }
  });
});
