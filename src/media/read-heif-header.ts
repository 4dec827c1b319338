import type { HeifHeader } from '../domain/renditions/media-decoder.ts';
import { imageTooLarge, mediaUnreadable } from '../errors/errors.ts';
import { BoxReader, type IsoBox, readBoxes, readChildBoxes } from './iso-boxes.ts';

// A HEIF's header read in TypeScript, without a tool (ISO/IEC 23008-12 §6, ISO/IEC 14496-12
// §8.11): `ftyp`, then `meta` → `pitm` (the primary item), `iinf` (each item's type),
// `iref` (thumbnails, auxiliary images), `iprp` → `ipco` (properties) + `ipma` (which item has
// which). Bounded: every field is read within its box, boxes within their parent, counts capped,
// and nothing below `meta`'s children but `ipco`'s is entered.

/** What decoding needs beyond the header: which of libheif's top-level images is the primary. */
export type HeifLayout = {
  /** As stored by the primary's `ispe` (a grid's own `ispe` is its output size). */
  storedWidth: number;
  storedHeight: number;
  /** The primary's `irot` (quarter turns anticlockwise). */
  quarterTurns: number;
  /** The images libheif lists as top level (not hidden, thumbnails or auxiliary), in file order. */
  topLevelCount: number;
  /** The primary's place among them. */
  primaryIndex: number;
  /** Whether an alpha plane is attached to the primary. */
  hasAlpha: boolean;
};

/** Counts past these are refused: phones write a few dozen items (a 48-tile grid, its thumbnail). */
export const maxHeifItems = 4096;
export const maxHeifProperties = 4096;

/** libheif's image item types (1.15): everything else (Exif, mime, …) is not an image. */
const imageItemTypes = new Set(['hvc1', 'av01', 'grid', 'iden', 'iovl']);
const alphaAuxiliaryTypes = new Set([
  'urn:mpeg:hevc:2015:auxid:1',
  'urn:mpeg:mpegB:cicp:systems:auxiliary:alpha',
]);

/** The header as displayed; IMAGE_TOO_LARGE past `maxPixels`; undefined when the prefix ends first. */
export function readHeifHeader(prefix: Buffer, limits: { maxPixels: number }): HeifHeader | undefined {
  const layout = readHeifLayout(prefix);
  if (!layout) return undefined;
  assertHeifPixels(layout, limits);
  const isTurned = layout.quarterTurns % 2 === 1;
  return {
    kind: 'heif',
    width: isTurned ? layout.storedHeight : layout.storedWidth,
    height: isTurned ? layout.storedWidth : layout.storedHeight,
  };
}

export function assertHeifPixels(layout: HeifLayout, limits: { maxPixels: number }): void {
  const pixels = layout.storedWidth * layout.storedHeight;
  if (pixels > limits.maxPixels)
    throw imageTooLarge(
      `it has ${toMegapixels(pixels)} megapixels, the limit is ${toMegapixels(limits.maxPixels)}`,
    );
}

/** The layout of a HEIF's primary image; undefined when `prefix` ends before its `meta` box does. */
export function readHeifLayout(prefix: Buffer): HeifLayout | undefined {
  let isFirst = true;
  for (const box of readBoxes(prefix, 0, prefix.length)) {
    if (isFirst && box.type !== 'ftyp') throw mediaUnreadable('it is not a HEIF file');
    isFirst = false;
    if (box.end > prefix.length) return undefined;
    if (box.type === 'meta') return readMeta(prefix, box);
  }
  if (isFirst) return undefined;
  // A `meta` box after the media data is legal but rare: the caller may read a longer prefix.
  return undefined;
}

type Item = { id: number; type: string; isHidden: boolean };
type Property = { type: string; width?: number; height?: number; quarterTurns?: number; isAlpha?: boolean };

function readMeta(bytes: Buffer, meta: IsoBox): HeifLayout {
  let primaryId: number | undefined;
  const items: Item[] = [];
  const properties: Property[] = [];
  const associations = new Map<number, number[]>();
  const references: { type: string; from: number; to: number[] }[] = [];
  // `meta` is a full box: its children start after version and flags.
  for (const box of readChildBoxes(bytes, { contentStart: meta.contentStart + 4, end: meta.end })) {
    if (box.type === 'pitm') {
      const reader = new BoxReader(bytes, box);
      primaryId = reader.uint(reader.versionAndFlags().version === 0 ? 2 : 4);
    } else if (box.type === 'iinf') items.push(...readItemInfos(bytes, box));
    else if (box.type === 'iref') references.push(...readReferences(bytes, box));
    else if (box.type === 'iprp')
      for (const child of readChildBoxes(bytes, box)) {
        if (child.type === 'ipco') properties.push(...readProperties(bytes, child));
        else if (child.type === 'ipma') readAssociations(bytes, child, associations);
      }
  }
  if (primaryId === undefined) throw mediaUnreadable('it names no primary image');
  const propertiesOf = (id: number) =>
    (associations.get(id) ?? [])
      .map((index) => properties[index - 1])
      .filter((property) => property !== undefined);
  const primary = propertiesOf(primaryId);
  const size = primary.find((property) => property.type === 'ispe');
  if (!size?.width || !size.height) throw mediaUnreadable('its primary image has no size');
  const auxiliaryIds = new Set(
    references.filter((reference) => reference.type === 'auxl').map((reference) => reference.from),
  );
  const thumbnailIds = new Set(
    references.filter((reference) => reference.type === 'thmb').map((reference) => reference.from),
  );
  const topLevel = items.filter(
    (item) =>
      imageItemTypes.has(item.type) &&
      !item.isHidden &&
      !auxiliaryIds.has(item.id) &&
      !thumbnailIds.has(item.id),
  );
  const primaryIndex = topLevel.findIndex((item) => item.id === primaryId);
  if (primaryIndex < 0) throw mediaUnreadable('its primary item is not an image');
  const alphaIds = references
    .filter((reference) => reference.type === 'auxl' && reference.to.includes(primaryId!))
    .map((reference) => reference.from);
  return {
    storedWidth: size.width,
    storedHeight: size.height,
    quarterTurns: primary.find((property) => property.type === 'irot')?.quarterTurns ?? 0,
    topLevelCount: topLevel.length,
    primaryIndex,
    hasAlpha: alphaIds.some((id) => propertiesOf(id).some((property) => property.isAlpha)),
  };
}

function readItemInfos(bytes: Buffer, iinf: IsoBox): Item[] {
  const reader = new BoxReader(bytes, iinf);
  const count = reader.uint(reader.versionAndFlags().version === 0 ? 2 : 4);
  if (count > maxHeifItems) throw mediaUnreadable(`it declares more than ${maxHeifItems} items`);
  const items: Item[] = [];
  for (const box of readChildBoxes(bytes, { contentStart: reader.at, end: iinf.end })) {
    if (box.type !== 'infe') continue;
    if (items.length === maxHeifItems) throw mediaUnreadable(`it declares more than ${maxHeifItems} items`);
    const infe = new BoxReader(bytes, box);
    const { version, flags } = infe.versionAndFlags();
    // Versions 0 and 1 predate item types: such an item is no image.
    if (version < 2) continue;
    const id = infe.uint(version === 2 ? 2 : 4);
    infe.uint(2); // item_protection_index
    items.push({ id, type: infe.fourCc(), isHidden: (flags & 1) === 1 });
  }
  return items;
}

function readReferences(bytes: Buffer, iref: IsoBox): { type: string; from: number; to: number[] }[] {
  const reader = new BoxReader(bytes, iref);
  const idBytes = reader.versionAndFlags().version === 0 ? 2 : 4;
  const references: { type: string; from: number; to: number[] }[] = [];
  for (const box of readChildBoxes(bytes, { contentStart: reader.at, end: iref.end })) {
    if (references.length === maxHeifItems)
      throw mediaUnreadable(`it declares more than ${maxHeifItems} references`);
    const reference = new BoxReader(bytes, box);
    const from = reference.uint(idBytes);
    const count = reference.uint(2);
    if (count * idBytes > reference.remaining) throw mediaUnreadable('a reference is shorter than its count');
    references.push({
      type: box.type,
      from,
      to: Array.from({ length: count }, () => reference.uint(idBytes)),
    });
  }
  return references;
}

function readProperties(bytes: Buffer, ipco: IsoBox): Property[] {
  const properties: Property[] = [];
  for (const box of readChildBoxes(bytes, ipco)) {
    if (properties.length === maxHeifProperties)
      throw mediaUnreadable(`it declares more than ${maxHeifProperties} properties`);
    properties.push(readProperty(bytes, box));
  }
  return properties;
}

function readProperty(bytes: Buffer, box: IsoBox): Property {
  const reader = new BoxReader(bytes, box);
  if (box.type === 'ispe') {
    reader.versionAndFlags();
    return { type: 'ispe', width: reader.uint(4), height: reader.uint(4) };
  }
  if (box.type === 'irot') return { type: 'irot', quarterTurns: reader.uint(1) & 3 };
  if (box.type === 'auxC') {
    reader.versionAndFlags();
    const end = bytes.indexOf(0, reader.at);
    const auxiliaryType = end >= reader.at && end < box.end ? bytes.toString('latin1', reader.at, end) : '';
    return { type: 'auxC', isAlpha: alphaAuxiliaryTypes.has(auxiliaryType) };
  }
  return { type: box.type };
}

function readAssociations(bytes: Buffer, ipma: IsoBox, associations: Map<number, number[]>): void {
  const reader = new BoxReader(bytes, ipma);
  const { version, flags } = reader.versionAndFlags();
  const entries = reader.uint(4);
  if (entries > maxHeifItems) throw mediaUnreadable(`it declares more than ${maxHeifItems} items`);
  for (let entry = 0; entry < entries; entry++) {
    const id = reader.uint(version < 1 ? 2 : 4);
    const count = reader.uint(1);
    const indexes: number[] = [];
    // The top bit of each is `essential`; the rest, the 1-based index into `ipco`.
    for (let association = 0; association < count; association++)
      indexes.push((flags & 1) === 1 ? reader.uint(2) & 0x7fff : reader.uint(1) & 0x7f);
    associations.set(id, [...(associations.get(id) ?? []), ...indexes]);
  }
}

function toMegapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10);
}
