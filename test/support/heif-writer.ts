import { type IsoBox, readBoxes, readChildBoxes } from '../../src/media/iso-boxes.ts';

// Writes the HEIF layouts Debian 12's heif-enc cannot (a tiled grid, an `irot`, several images)
// from the HEVC tiles it does write: the tests' own boxes, ISO/IEC 23008-12 §6 and §6.6.2.3.

/** One HEVC-coded image as heif-enc wrote it: its decoder configuration and coded data. */
export type HevcTile = { hvcC: Buffer; data: Buffer; width: number; height: number };

const u8 = (value: number) => Buffer.from([value]);
const u16 = (value: number) => {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
};
const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const text = (value: string) => Buffer.from(value, 'latin1');

export function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([u32(8 + body.length), text(type), body]);
}

const fullBox = (type: string, version: number, flags: number, ...content: Buffer[]) =>
  box(type, u32(version * 2 ** 24 + flags), ...content);

/** The hvc1 item of a file heif-enc wrote from an image whose sides are multiples of 64. */
export function extractTile(heic: Buffer): HevcTile {
  const meta = topBox(heic, 'meta');
  const children = [...readChildBoxes(heic, { contentStart: meta.contentStart + 4, end: meta.end })];
  const child = (type: string) => children.find((candidate) => candidate.type === type)!;
  const iprp = child('iprp');
  const ipco = [...readChildBoxes(heic, iprp)].find((candidate) => candidate.type === 'ipco')!;
  const properties = [...readChildBoxes(heic, ipco)];
  const hvcC = properties.find((property) => property.type === 'hvcC')!;
  const ispe = properties.find((property) => property.type === 'ispe')!;
  // heif-enc writes one item, iloc version 0 with 4-byte offsets, lengths and base offset, one extent.
  const iloc = child('iloc');
  const at = iloc.contentStart;
  if (heic[at] !== 0 || heic[at + 4] !== 0x44 || heic[at + 5] !== 0x40 || heic.readUInt16BE(at + 6) !== 1)
    throw new Error('heif-enc wrote an iloc this reader does not know');
  const offset = heic.readUInt32BE(at + 12) + heic.readUInt32BE(at + 18);
  const length = heic.readUInt32BE(at + 22);
  return {
    hvcC: heic.subarray(hvcC.start, hvcC.end),
    data: heic.subarray(offset, offset + length),
    width: heic.readUInt32BE(ispe.contentStart + 4),
    height: heic.readUInt32BE(ispe.contentStart + 8),
  };
}

/** The HEIF to write: coded images, and optionally a grid over them as the primary. */
export type HeifLayoutSpec = {
  images: HevcTile[];
  /** A grid of all the images (row by row), hidden as phones write their tiles: the primary. */
  grid?: { rows: number; columns: number; width: number; height: number };
  /** `irot` of the primary: quarter turns anticlockwise. */
  quarterTurns?: number;
  /** Without a grid: which image (0-based) is the primary. */
  primaryIndex?: number;
};

export function writeHeif(spec: HeifLayoutSpec): Buffer {
  const ftyp = box('ftyp', text('heic'), u32(0), text('mif1heicmiaf'));
  const placeholder = writeMeta(spec, 0);
  const mdatStart = ftyp.length + placeholder.length + 8;
  const mdat = box('mdat', ...spec.images.map((image) => image.data));
  return Buffer.concat([ftyp, writeMeta(spec, mdatStart), mdat]);
}

function writeMeta(spec: HeifLayoutSpec, mdatStart: number): Buffer {
  const { images, grid } = spec;
  const gridId = images.length + 1;
  const primaryId = grid ? gridId : (spec.primaryIndex ?? 0) + 1;
  const gridData = grid
    ? Buffer.concat([
        u8(0),
        u8(0),
        u8(grid.rows - 1),
        u8(grid.columns - 1),
        u16(grid.width),
        u16(grid.height),
      ])
    : Buffer.alloc(0);
  // iloc version 1 (construction methods): 4-byte offsets and lengths, no base offset.
  const locations: Buffer[] = [];
  let offset = mdatStart;
  images.forEach((image, index) => {
    locations.push(u16(index + 1), u16(0), u16(0), u16(1), u32(offset), u32(image.data.length));
    offset += image.data.length;
  });
  if (grid) locations.push(u16(gridId), u16(1), u16(0), u16(1), u32(0), u32(gridData.length));
  const iloc = fullBox('iloc', 1, 0, u8(0x44), u8(0x00), u16(images.length + (grid ? 1 : 0)), ...locations);
  const infos = images.map((_, index) =>
    fullBox('infe', 2, grid ? 1 : 0, u16(index + 1), u16(0), text('hvc1'), u8(0)),
  );
  if (grid) infos.push(fullBox('infe', 2, 0, u16(gridId), u16(0), text('grid'), u8(0)));
  const iinf = fullBox('iinf', 0, 0, u16(infos.length), ...infos);
  // Properties: each image's hvcC and ispe, then the grid's ispe, then the irot.
  const properties: Buffer[] = [];
  const associations: Buffer[] = [];
  images.forEach((image, index) => {
    properties.push(image.hvcC, ispe(image.width, image.height));
    const own = [properties.length - 1, properties.length];
    const rotation = !grid && index + 1 === primaryId && spec.quarterTurns ? [newIrot(properties, spec)] : [];
    associations.push(association(index + 1, own, rotation));
  });
  if (grid) {
    properties.push(ispe(grid.width, grid.height));
    const gridSize = properties.length;
    associations.push(association(gridId, [gridSize], spec.quarterTurns ? [newIrot(properties, spec)] : []));
  }
  const ipma = fullBox('ipma', 0, 0, u32(associations.length), ...associations);
  const parts = [
    fullBox('hdlr', 0, 0, u32(0), text('pict'), Buffer.alloc(12), u8(0)),
    fullBox('pitm', 0, 0, u16(primaryId)),
    iloc,
    iinf,
  ];
  if (grid)
    parts.push(
      fullBox(
        'iref',
        0,
        0,
        box('dimg', u16(gridId), u16(images.length), ...images.map((_, index) => u16(index + 1))),
      ),
    );
  parts.push(box('iprp', box('ipco', ...properties), ipma));
  if (grid) parts.push(box('idat', gridData));
  return fullBox('meta', 0, 0, ...parts);
}

const ispe = (width: number, height: number) => fullBox('ispe', 0, 0, u32(width), u32(height));

function newIrot(properties: Buffer[], spec: HeifLayoutSpec): number {
  properties.push(box('irot', u8(spec.quarterTurns! & 3)));
  return properties.length;
}

/** One ipma entry: 1-based property indexes, the first ones essential (hvcC), irot essential too. */
function association(id: number, indexes: number[], rotation: number[]): Buffer {
  const all = [
    ...indexes.map((index, position) => (position === 0 ? 0x80 : 0) | index),
    ...rotation.map((index) => 0x80 | index),
  ];
  return Buffer.concat([u16(id), u8(all.length), ...all.map(u8)]);
}

/** The same file with every `ispe` claiming `width`×`height` (a forged header). */
export function withForgedSize(heic: Buffer, width: number, height: number): Buffer {
  const forged = Buffer.from(heic);
  for (let at = forged.indexOf('ispe'); at >= 0; at = forged.indexOf('ispe', at + 4)) {
    forged.writeUInt32BE(width, at + 8);
    forged.writeUInt32BE(height, at + 12);
  }
  return forged;
}

function topBox(bytes: Buffer, type: string): IsoBox {
  for (const candidate of readBoxes(bytes, 0, bytes.length)) if (candidate.type === type) return candidate;
  throw new Error(`no ${type} box`);
}
