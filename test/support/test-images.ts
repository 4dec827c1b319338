import { createCipheriv } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32, createDeflate } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

// Deterministic images for the renderer's tests, the renditions API tests and the bench. Most
// show one scene: the top-left quadrant red, the rest blue, so that a test can tell an upright
// rendition from a turned or mirrored one (redCorner).

export type Corner = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
export type ImageSize = { width?: number; height?: number };

const red = [220, 30, 30] as const;
const blue = [30, 60, 200] as const;
const smallSize = { width: 64, height: 48 };

/**
 * A JPEG whose stored pixels are `width`×`height`, tagged with EXIF `orientation` (6: displayed
 * turned a quarter clockwise, so 300×200 displays 200×300) and, with `gps`, a GPS position
 * (IFD3) and camera make. Displayed as its orientation says, its top-left quadrant is red.
 */
export async function jpegWithExif(
  options: { width?: number; height?: number; orientation?: number; gps?: boolean } = {},
): Promise<Buffer> {
  const { width = 300, height = 200, orientation = 6, gps = true } = options;
  const pixels = scenePixels(width, height, orientation);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .withExif({
      IFD0: { Make: 'Coffer Test Camera', Model: 'Fixture 1' },
      ...(gps && {
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '48/1 51/1 2964/100',
          GPSLongitudeRef: 'E',
          GPSLongitude: '2/1 17/1 4030/100',
        },
      }),
    })
    .withMetadata({ orientation })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Whether an EXIF block (as sharp's metadata().exif gives it) points to GPS tags (0x8825). */
export function hasGpsInfo(exif: Buffer): boolean {
  const start = Math.max(exif.indexOf('II*\0', 0, 'latin1'), exif.indexOf('MM\0*', 0, 'latin1'));
  if (start < 0) return false;
  const isLittleEndian = exif[start] === 0x49;
  const read16 = (at: number) => (isLittleEndian ? exif.readUInt16LE(at) : exif.readUInt16BE(at));
  const read32 = (at: number) => (isLittleEndian ? exif.readUInt32LE(at) : exif.readUInt32BE(at));
  const ifd0 = start + read32(start + 4);
  const entries = read16(ifd0);
  for (let entry = 0; entry < entries; entry++) if (read16(ifd0 + 2 + entry * 12) === 0x8825) return true;
  return false;
}

/** Which quadrant of an image's stored pixels is red (any EXIF orientation is not applied). */
export async function redCorner(image: Buffer): Promise<Corner | undefined> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const isRed = (x: number, y: number) => {
    const at = (Math.floor(y) * info.width + Math.floor(x)) * info.channels;
    return data[at]! > 160 && data[at + 1]! < 100 && data[at + 2]! < 100;
  };
  const [left, right, top, bottom] = [
    info.width / 4,
    (info.width * 3) / 4,
    info.height / 4,
    (info.height * 3) / 4,
  ];
  const corners: [Corner, boolean][] = [
    ['top-left', isRed(left, top)],
    ['top-right', isRed(right, top)],
    ['bottom-left', isRed(left, bottom)],
    ['bottom-right', isRed(right, bottom)],
  ];
  const redOnes = corners.filter(([, red]) => red);
  return redOnes.length === 1 ? redOnes[0]![0] : undefined;
}

/**
 * A valid PNG of `width`×`height` 1-bit grey pixels, all black, a few dozen KB on disk: a
 * decompression bomb (20000×20000 is 400 megapixels). Built by hand, chunk by chunk, because an
 * encoder would have to hold the pixels. With `corruptPixelData` its compressed pixels cannot
 * be inflated: what refuses it without an IMAGE_UNREADABLE has not read past the header.
 */
export async function pngBomb(
  options: { width?: number; height?: number; corruptPixelData?: boolean } = {},
): Promise<Buffer> {
  const { width = 20_000, height = 20_000, corruptPixelData = false } = options;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth; colour type 0 (grey), deflate, filter method 0, no interlace
  // Each row: filter byte 0 (none), then width bits of 0: the whole stream is zero bytes.
  const pixelData = await deflateZeros((1 + Math.ceil(width / 8)) * height);
  if (corruptPixelData) pixelData.fill(0xff, 0, 2); // an impossible zlib header
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixelData),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function svgImage(): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">' +
      '<rect width="64" height="48" fill="#1e3cc8"/><rect width="32" height="24" fill="#dc1e1e"/></svg>\n',
  );
}

/** A minimal valid one-page PDF (cross-reference offsets computed). */
export function pdfDocument(): Buffer {
  const content = '1 0 0 rg 0 24 32 24 re f'; // a red rectangle, top left
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 64 48] /Contents 4 0 R /Resources << >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(text));
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text);
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

export const pngImage = (size: ImageSize & { transparent?: boolean } = {}) =>
  sceneImage(size, (image) => image.png(), size.transparent);
export const webpImage = (size: ImageSize = {}) =>
  sceneImage(size, (image) => image.webp({ lossless: true }));
export const gifImage = (size: ImageSize = {}) => sceneImage(size, (image) => image.gif());
export const avifImage = (size: ImageSize = {}) => sceneImage(size, (image) => image.avif({ quality: 90 }));
export const tiffImage = (size: ImageSize = {}) => sceneImage(size, (image) => image.tiff());
export const jpegImage = (size: ImageSize = {}) => sceneImage(size, (image) => image.jpeg({ quality: 90 }));

/**
 * A photo-like JPEG of about `megapixels` (4:3): gradients, soft shapes and grain, so that
 * decoding and encoding cost what a camera's photo costs (a flat colour would cost nothing).
 */
export async function largeJpeg(options: { megapixels?: number } = {}): Promise<Buffer> {
  const { megapixels = 12 } = options;
  const width = Math.round(Math.sqrt((megapixels * 1e6 * 4) / 3));
  const height = Math.round((width * 3) / 4);
  return sharp(photoPixels(width, height), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * A JPEG of pure noise (AES-CTR under a zero key: the same bytes every run), the worst case
 * for every encoder: a rendition of it at full size takes seconds, e.g. to meet a timeout.
 */
export function noiseJpeg(options: ImageSize = {}): Promise<Buffer> {
  const { width = 4096, height = 3072 } = options;
  const noise = createCipheriv('aes-128-ctr', Buffer.alloc(16), Buffer.alloc(16)).update(
    Buffer.alloc(width * height * 3),
  );
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

function sceneImage(size: ImageSize, encode: (image: Sharp) => Sharp, transparent = false): Promise<Buffer> {
  const { width = smallSize.width, height = smallSize.height } = size;
  const rgb = scenePixels(width, height, 1);
  if (!transparent) return encode(sharp(rgb, { raw: { width, height, channels: 3 } })).toBuffer();
  const rgba = Buffer.alloc(width * height * 4);
  for (let pixel = 0; pixel < width * height; pixel++) {
    rgb.copy(rgba, pixel * 4, pixel * 3, pixel * 3 + 3);
    rgba[pixel * 4 + 3] = rgb[pixel * 3] === red[0] ? 255 : 0; // only the red quadrant is opaque
  }
  return encode(sharp(rgba, { raw: { width, height, channels: 4 } })).toBuffer();
}

/** Stored RGB pixels that, displayed as EXIF `orientation` says, show the red top-left quadrant. */
function scenePixels(width: number, height: number, orientation: number): Buffer {
  const isTurned = orientation >= 5;
  const [shownWidth, shownHeight] = isTurned ? [height, width] : [width, height];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [shownX, shownY] = toDisplayed(orientation, x, y, width, height);
      const colour = shownX < shownWidth / 2 && shownY < shownHeight / 2 ? red : blue;
      pixels.set(colour, (y * width + x) * 3);
    }
  }
  return pixels;
}

/** Where stored pixel (x, y) of a width×height image is displayed, per EXIF orientation 1–8. */
function toDisplayed(orientation: number, x: number, y: number, width: number, height: number) {
  const moves: Record<number, [number, number]> = {
    1: [x, y],
    2: [width - 1 - x, y], // mirrored
    3: [width - 1 - x, height - 1 - y], // turned half
    4: [x, height - 1 - y], // flipped
    5: [y, x], // transposed
    6: [height - 1 - y, x], // turned a quarter clockwise
    7: [height - 1 - y, width - 1 - x], // transversed
    8: [y, width - 1 - x], // turned a quarter anticlockwise
  };
  const move = moves[orientation];
  if (!move) throw new Error(`EXIF orientation ${orientation} is not 1–8`);
  return move;
}

/** Gradients, two soft discs and ±12 of grain from a fixed-seed generator: the same bytes every run. */
function photoPixels(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 0x2545f491;
  const grain = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return ((seed >>> 0) % 25) - 12;
  };
  const discs = [
    { x: width * 0.3, y: height * 0.4, radius: height * 0.25 },
    { x: width * 0.7, y: height * 0.6, radius: height * 0.2 },
  ];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inDisc = discs.some((disc) => (x - disc.x) ** 2 + (y - disc.y) ** 2 < disc.radius ** 2);
      const at = (y * width + x) * 3;
      pixels[at] = clampByte((x / width) * 200 + (inDisc ? 50 : 0) + grain());
      pixels[at + 1] = clampByte((y / height) * 180 + grain());
      pixels[at + 2] = clampByte(120 + (inDisc ? -60 : 40) + grain());
    }
  }
  return pixels;
}

function clampByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

async function deflateZeros(sizeBytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(1 << 20);
  async function* chunks() {
    for (let left = sizeBytes; left > 0; left -= zeros.length)
      yield zeros.subarray(0, Math.min(left, zeros.length));
  }
  const compressed: Buffer[] = [];
  for await (const chunk of Readable.from(chunks()).pipe(createDeflate({ level: 9 }))) compressed.push(chunk);
  return Buffer.concat(compressed);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}
