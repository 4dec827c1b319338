import assert from 'node:assert/strict';
import { it } from 'node:test';
import { box, type HevcTile, writeHeif } from '../../test/support/heif-writer.ts';
import { AppError } from '../errors/app-error.ts';
import { readHeifHeader, readHeifLayout } from './read-heif-header.ts';

// The HEIF header is read from bytes an attacker wrote: every size is checked against its box,
// every count capped, and what does not add up is 422 MEDIA_UNREADABLE, never a throw of its own.

/** A tile whose coded bytes are not HEVC: the header reader never looks at them. */
const tile = (width: number, height: number): HevcTile => ({
  hvcC: box('hvcC', Buffer.alloc(23)),
  data: Buffer.alloc(16),
  width,
  height,
});
const limits = { maxPixels: 50_000_000 };
const withCode = (code: string) => (error: unknown) => error instanceof AppError && error.code === code;

it('reads the primary size, a grid’s output size, and swaps the sides for irot 1 and 3 only', () => {
  assert.deepEqual(readHeifHeader(writeHeif({ images: [tile(640, 480)] }), limits), {
    kind: 'heif',
    width: 640,
    height: 480,
  });
  const grid = { rows: 2, columns: 3, width: 1500, height: 1000 };
  assert.deepEqual(
    readHeifHeader(writeHeif({ images: Array.from({ length: 6 }, () => tile(512, 512)), grid }), limits),
    {
      kind: 'heif',
      width: 1500,
      height: 1000,
    },
  );
  for (const [quarterTurns, width, height] of [
    [1, 480, 640],
    [2, 640, 480],
    [3, 480, 640],
  ] as const)
    assert.deepEqual(readHeifHeader(writeHeif({ images: [tile(640, 480)], quarterTurns }), limits), {
      kind: 'heif',
      width,
      height,
    });
});

it('counts the top-level images and finds the primary among them (grid tiles are hidden)', () => {
  const layout = readHeifLayout(
    writeHeif({ images: [tile(64, 64), tile(32, 32), tile(16, 16)], primaryIndex: 1 }),
  )!;
  assert.deepEqual([layout.topLevelCount, layout.primaryIndex, layout.storedWidth], [3, 1, 32]);
  const grid = readHeifLayout(
    writeHeif({
      images: [tile(64, 64), tile(64, 64)],
      grid: { rows: 1, columns: 2, width: 128, height: 64 },
    }),
  )!;
  assert.deepEqual([grid.topLevelCount, grid.primaryIndex], [1, 0]);
});

it('over the pixel limit: IMAGE_TOO_LARGE', () => {
  assert.throws(
    () => readHeifHeader(writeHeif({ images: [tile(100_000, 100_000)] }), limits),
    withCode('IMAGE_TOO_LARGE'),
  );
});

it('a prefix that ends before the meta box does: undefined', () => {
  const bytes = writeHeif({ images: [tile(64, 64)] });
  for (const length of [0, 8, 30, 60, bytes.indexOf('mdat') - 8])
    assert.equal(readHeifHeader(bytes.subarray(0, length), limits), undefined);
});

it('damaged or hostile headers: MEDIA_UNREADABLE', () => {
  const bytes = writeHeif({ images: [tile(64, 64)] });
  const at = (type: string) => bytes.indexOf(type) - 4;
  const patched = (offset: number, value: number) => {
    const copy = Buffer.from(bytes);
    copy.writeUInt32BE(value, offset);
    return copy;
  };
  const cases: [string, Buffer][] = [
    ['not ISO-BMFF', Buffer.concat([box('free', Buffer.alloc(8)), bytes])],
    ['a box overrunning meta', patched(at('iinf'), 100_000)],
    ['a box smaller than its header', patched(at('pitm'), 3)],
    ['an ispe cut short', patched(at('ispe'), 12)],
    ['an item count past the cap', patched(at('iinf') + 12, 0x7fff_0000)],
    ['an ipma entry count past the cap', patched(at('ipma') + 12, 1_000_000)],
    ['no primary item', Buffer.from(bytes.toString('latin1').replace('pitm', 'xxxx'), 'latin1')],
    ['a primary without a size', Buffer.from(bytes.toString('latin1').replace('ispe', 'xspe'), 'latin1')],
  ];
  for (const [name, damaged] of cases)
    assert.throws(() => readHeifHeader(damaged, limits), withCode('MEDIA_UNREADABLE'), name);
});
