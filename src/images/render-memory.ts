import type { Metadata } from 'sharp';
import type { ImageHeader } from '../domain/renditions/image-renderer.ts';
import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';
import { toWrittenFormat, type WrittenFormat } from './output-format.ts';
import { toRenditionPixels } from './rendition-size.ts';

// The memory a render takes, estimated from the header before any decoding (issue 35). The
// numbers are measured, not derived: the peak RSS (VmHWM) a child process grew by while it
// rendered one image with this sharp/libvips (8.18), 7000×7000 unless said, to a 200×200 JPEG.
// src/images/render-memory.test.ts measures every loader again and fails when a render
// takes more than its estimate, so a libvips update that changes them is caught.
//
//   PNG 16-bit RGB, interlaced     321 MiB  6.9 B/px   (Adam7: the whole image is decoded first)
//   PNG 16-bit RGBA, interlaced    435 MiB  9.3 B/px
//   PNG 8-bit RGB, interlaced      162 MiB  3.5 B/px
//   JPEG progressive 4:2:0         148 MiB  3.2 B/px   (libjpeg holds every DCT coefficient, 2 B)
//   JPEG progressive 4:4:4         287 MiB  6.1 B/px
//   GIF (first frame)              224 MiB  4.8 B/px   (an RGBA canvas; 5.2 B/px animated)
//   AVIF 8-bit 4:4:4               860 MiB 18.4 B/px   (libheif decodes whole: YUV, RGB, a copy)
//   AVIF 10-bit                   1153 MiB 24.7 B/px
//   PNG 16-bit RGB, not interlaced  63 MiB            (streamed: ~1,600 rows of the source's width;
//   PNG 8-bit 25000×2000           107 MiB             208 MiB at 25000 wide and 16-bit)
//   JPEG baseline                    7 MiB            (streamed, and shrunk while decoding)
//   WebP lossy / lossless / alpha  4 / 26 / 55 MiB    (to a thumbnail; 134–145 MiB to 4096×4096)
//
// Encoders hold the whole rendition (from a 7000×7000 baseline JPEG to 4096×4096, less the
// source's own 36 MiB): AVIF 20.3 B/px, GIF 10, JPEG 5.9 (mozjpeg optimises over every
// coefficient), WebP 4.1; PNG streams.
//
// Animated renders (issue 39), frames of noise to an animated WebP, peak RSS growth:
//   GIF  1000²×20 → 320 px   45 MiB;  → 1000 px 100 MiB   (libnsgif streams frame by frame)
//   WebP 1000²×20 → 320 px   22 MiB;  → 1000 px 152 MiB
//   WebP  600²×60 →  600 px 126 MiB;  WebP 1500²×10 → 1500 px 209 MiB;  2000²×4 → 2000 px 285 MiB
// Fitted: ~5.3 B for each pixel of all the rendition's frames, and ~49 B for each pixel of one
// frame (libwebp's animation encoder: canvases and candidate encodings of the frame at hand).

/** What every render holds whatever its image: libvips' own buffers, a thread, zlib. */
const fixedBytes = 16 * 2 ** 20;

/** A margin over the measured whole-image decodes (allocator slack, the decoder's own tables). */
const wholeImageMargin = 1.2;

/**
 * A streamed decode and the shrink behind it hold a band of rows of the source's width: about
 * 1,600 measured, 1,800 counted, with a margin (a short image took more than its own size).
 */
const streamedRows = 1800;
const streamedMargin = 1.25;

/** Bytes per rendition pixel the encoder holds (measured above, rounded up). */
const encodeBytesPerPixel: Record<WrittenFormat, number> = {
  avif: 22,
  gif: 11,
  jpeg: 6.5,
  webp: 4.5,
  png: 1,
};

/**
 * The memory decoding an image takes, from its header. Interlaced PNG, progressive JPEG, GIF,
 * WebP and HEIF (AVIF, and HEIC once it is let in) are decoded whole whatever the rendition's
 * size; non-interlaced PNG and baseline JPEG stream, holding a band of rows.
 */
export function estimateDecodeBytes(metadata: Metadata): number {
  const width = metadata.width;
  const height = metadata.pageHeight ?? metadata.height;
  const pixels = width * height;
  const bands = metadata.channels;
  const sampleBytes = bytesPerSample(metadata.depth);
  switch (metadata.format) {
    case 'png':
      if (metadata.isProgressive) return fixedBytes + pixels * bands * sampleBytes * wholeImageMargin;
      return fixedBytes + streamedBytes(width, height, bands * sampleBytes);
    case 'jpeg': {
      if (!metadata.isProgressive) return fixedBytes + streamedBytes(width, height, bands);
      // One 2-byte coefficient per sample; 4:2:0 keeps a quarter of each chroma band.
      const samples = metadata.chromaSubsampling === '4:2:0' ? 1 + (bands - 1) / 4 : bands;
      return fixedBytes + pixels * samples * 2 * wholeImageMargin;
    }
    case 'gif':
      // libnsgif paints frames onto an RGBA canvas of the whole image, whatever the palette.
      return fixedBytes + pixels * 4 * 1.35;
    case 'webp':
      // libwebp decodes the whole frame, shrunk where the rendition is small: at most all of it.
      return fixedBytes + pixels * Math.max(bands, 3);
    case 'heif':
      // libheif holds the decoder's planes, their RGB conversion and libvips' copy of it.
      return fixedBytes + pixels * bands * (4 + 2 * sampleBytes) * 1.15;
    default:
      // readImageHeader refuses every other format before this is asked: count it as whole.
      return fixedBytes + pixels * bands * sampleBytes * wholeImageMargin;
  }
}

/** Every frame of an animation as RGBA (libnsgif's canvas, libwebp's demuxed frames). */
const animatedDecodeBytesPerPixel = 4;
/** Every frame of an animated WebP rendition: the resized strip, and the encoded frames. */
const animatedEncodeBytesPerPixel = 4.5;
/**
 * One frame's working set in libwebp's animation encoder, which keeps the previous and current
 * canvases and encodes each frame several ways (lossy and lossless, whole and sub-frame).
 */
const animatedFrameEncodeBytesPerPixel = 56;

/** The memory a render takes: decoding its source, and encoding a rendition of `pixels` pixels. */
export function estimateRenderBytes(
  header: Pick<ImageHeader, 'decodeBytes'>,
  rendition: { pixels: number; format: WrittenFormat },
): number {
  return header.decodeBytes + rendition.pixels * encodeBytesPerPixel[rendition.format];
}

/** The formats whose animations render animated (issue 39): AVIF sequences stay first frames. */
const animatedFormats: readonly ImageHeader['format'][] = ['gif', 'webp'];

/** Whether `spec` renders every frame of this source: an animated spec of a GIF or WebP of frames. */
export function isAnimatedRender(
  header: Pick<ImageHeader, 'format' | 'pages'>,
  spec: RenditionSpec,
): boolean {
  return spec.animated && header.pages > 1 && animatedFormats.includes(header.format);
}

/**
 * The memory a render of `spec` takes: of its first frame (estimateRenderBytes), or of every
 * frame for an animated render (estimateAnimatedRenderBytes).
 */
export function estimateRenditionBytes(header: ImageHeader, spec: RenditionSpec): number {
  const pixels = toRenditionPixels(header, spec);
  if (isAnimatedRender(header, spec)) return estimateAnimatedRenderBytes(header, pixels);
  return estimateRenderBytes(header, { pixels, format: toWrittenFormat(spec.format, header.format) });
}

/**
 * The memory of an animated render (issue 39): every frame of the source, RGBA, and the
 * rendition's frames with the encoder's share. Counted as if every frame were held at once,
 * which bounds what libvips' strip of frames can take whatever it streams.
 */
export function estimateAnimatedRenderBytes(
  header: Pick<ImageHeader, 'width' | 'height' | 'pages'>,
  renditionPixels: number,
): number {
  return (
    fixedBytes +
    header.width * header.height * header.pages * animatedDecodeBytesPerPixel +
    renditionPixels * header.pages * animatedEncodeBytesPerPixel +
    renditionPixels * animatedFrameEncodeBytesPerPixel
  );
}

function streamedBytes(width: number, height: number, bytesPerPixel: number): number {
  return width * Math.min(height, streamedRows) * bytesPerPixel * streamedMargin;
}

function bytesPerSample(depth: Metadata['depth']): number {
  switch (depth) {
    case 'uchar':
    case 'char':
      return 1;
    case 'ushort':
    case 'short':
      return 2;
    case 'double':
    case 'complex':
      return 8;
    case 'dpcomplex':
      return 16;
    default:
      return 4;
  }
}
