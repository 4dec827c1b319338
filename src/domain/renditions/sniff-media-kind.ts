import type { MediaKind } from './media-decoder.ts';

// Phone media told from its first bytes (issue 39), never from its name or declared type. HEIF
// and AVIF share ISO-BMFF's `ftyp` box: AVIF stays sharp's (src/images/), HEIF goes to libheif.

/** The container a video's demuxer is forced to (ffmpeg's `-f`), so no other can be chosen. */
export type VideoContainer = 'mov' | 'matroska';

/** Brands of HEVC-coded HEIF stills and sequences (ISO/IEC 23008-12 Annex B). */
const heifBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
/** The generic HEIF brands: a still (`mif1`) or a sequence (`msf1`) of any codec. */
const genericHeifBrands = new Set(['mif1', 'msf1']);
/** AVIF: sharp's own loader reads it. */
const avifBrands = new Set(['avif', 'avis']);
/** MP4 and QuickTime brands of files that carry video (ISO/IEC 14496-12 and -14, Apple, 3GPP). */
const videoBrands = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'hvc1',
  'qt  ',
  'M4V ',
  'M4VP',
  'M4VH',
  'mmp4',
  'MSNV',
  'XAVC',
  'dash',
  'f4v ',
  '3gp4',
  '3gp5',
  '3gp6',
  '3g2a',
  'mp71',
]);
/** QuickTime files from before `ftyp`: the first atom is one of these. */
const quickTimeAtoms = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
/** EBML's magic number, the first bytes of every Matroska and WebM file. */
const ebmlMagic = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** `heif` for HEIF/HEIC stills and sequences, `video` for MP4, MOV, WebM and Matroska, else undefined. */
export function sniffMediaKind(prefix: Buffer): MediaKind | undefined {
  const brands = readBrands(prefix);
  if (brands) {
    const [major, ...compatible] = brands;
    if (avifBrands.has(major!)) return undefined;
    if (heifBrands.has(major!)) return 'heif';
    if (genericHeifBrands.has(major!))
      return compatible.some((brand) => avifBrands.has(brand)) ? undefined : 'heif';
  }
  return sniffVideoContainer(prefix) ? 'video' : undefined;
}

/** The container of a video's bytes, for ffmpeg's `-f`; undefined when they are none Coffer takes. */
export function sniffVideoContainer(prefix: Buffer): VideoContainer | undefined {
  if (prefix.subarray(0, 4).equals(ebmlMagic)) return 'matroska';
  const brands = readBrands(prefix);
  if (brands) {
    const isImage = brands.some((brand) => heifBrands.has(brand) || avifBrands.has(brand));
    // An image's brand wins over `isom` among its compatible brands (AVIF and HEIF list it).
    if (isImage || genericHeifBrands.has(brands[0]!)) return undefined;
    return brands.some((brand) => videoBrands.has(brand)) ? 'mov' : undefined;
  }
  if (prefix.length >= 8 && quickTimeAtoms.has(prefix.toString('latin1', 4, 8))) return 'mov';
  return undefined;
}

/** The major and compatible brands of a leading `ftyp` box (those within the prefix). */
function readBrands(prefix: Buffer): string[] | undefined {
  if (prefix.length < 12 || prefix.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const size = prefix.readUInt32BE(0);
  if (size < 16) return undefined;
  const end = Math.min(size, prefix.length);
  const brands = [prefix.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(prefix.toString('latin1', at, at + 4));
  return brands;
}
