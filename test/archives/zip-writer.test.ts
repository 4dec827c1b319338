import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { digestOf, memoryZipSource, type SyntheticFile, writeZipTo } from '../support/memory-zip-source.ts';
import { assertStockReadersAccept } from '../support/zip-readers.ts';

/**
 * The ZIP writer alone (src/archives/), with synthetic files: every archive is read by the stock
 * readers (Debian's unzip, Python's zipfile, 7-Zip), byte for byte against the files.
 */
describe('the ZIP writer', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coffer-zip-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function expectedOf(files: SyntheticFile[]) {
    const crcs = new Map<string, number>();
    const sha = new Map<string, string>();
    for (const file of files) {
      const digest = await digestOf(file);
      crcs.set(file.name, digest.crc32);
      sha.set(file.name, digest.sha256);
    }
    return { crcs, sha };
  }

  const mixed: SyntheticFile[] = [
    { name: 'readme.txt', size: 1234, seed: 1, crcKnown: true },
    { name: 'photos/été/Привет мир.jpg', size: 300_000, seed: 2, crcKnown: false },
    { name: 'empty.bin', size: 0, seed: 3, crcKnown: false },
    { name: '日本語/ファイル 🎉.dat', size: 70_000, seed: 4, crcKnown: true },
    { name: 'docs/a (2).txt', size: 1, seed: 5, crcKnown: false },
    { name: 'z/last.bin', size: 2 * 1024 * 1024 + 3, seed: 6, crcKnown: false },
  ];

  test('UTF-8 names, known and unknown CRCs, an empty file: exact length, read by unzip, zipfile and 7-Zip', async () => {
    const { crcs, sha } = await expectedOf(mixed);
    const { source, layout, saved } = memoryZipSource(mixed, crcs);
    const file = path.join(dir, 'mixed.zip');
    await writeZipTo(source, file);
    assert.equal((await stat(file)).size, layout.totalBytes);
    await assertStockReadersAccept(file, sha);
    // The CRCs unknown at creation were learnt while their bytes went out, and kept.
    assert.deepEqual(saved.sort(), ['docs/a (2).txt', 'photos/été/Привет мир.jpg', 'z/last.bin']);
  });

  test('the bytes are the same on every request, and any range of them is the same slice', async () => {
    const { crcs } = await expectedOf(mixed);
    const whole = path.join(dir, 'whole.zip');
    await writeZipTo(memoryZipSource(mixed, crcs).source, whole);
    const wholeBytes = await readFile(whole);
    const again = path.join(dir, 'again.zip');
    await writeZipTo(memoryZipSource(mixed, crcs).source, again);
    assert.ok(wholeBytes.equals(await readFile(again)));

    // Cut points in every kind of record: headers, data, descriptors, central directory, end.
    const { entries, layout } = memoryZipSource(mixed, crcs);
    const cuts = new Set<number>([1, layout.offset, layout.offset + 7, layout.totalBytes - 5]);
    for (const entry of entries) {
      cuts.add(entry.localHeaderOffset + 3);
      cuts.add(entry.localHeaderOffset + 40);
      cuts.add(entry.localHeaderOffset + 30 + Buffer.byteLength(entry.name) + Math.floor(entry.size / 2));
      cuts.add(layout.offset + entry.centralOffset + 11);
    }
    for (const cut of [...cuts].filter((at) => at > 0 && at < layout.totalBytes)) {
      // A fresh source each time: CRCs unknown at creation are still unknown, so a range that
      // starts past an entry's first byte must compute it before its descriptor or central header.
      const fresh = memoryZipSource(mixed, crcs);
      const tail = path.join(dir, `tail-${cut}.bin`);
      await writeZipTo(fresh.source, tail, { start: cut, end: layout.totalBytes - 1 });
      const tailBytes = await readFile(tail);
      assert.ok(tailBytes.equals(wholeBytes.subarray(cut)), `the range from ${cut} differs`);
      await rm(tail);
    }
    const middle = path.join(dir, 'middle.bin');
    await writeZipTo(memoryZipSource(mixed, crcs).source, middle, { start: 100, end: 200_000 });
    assert.ok((await readFile(middle)).equals(wholeBytes.subarray(100, 200_001)));
  });

  test('more than 65,535 entries: ZIP64 end records, read by unzip, zipfile and 7-Zip', async () => {
    const files: SyntheticFile[] = Array.from({ length: 70_000 }, (_, index) => ({
      name: `many/${String(index).padStart(5, '0')}${index % 7 === 0 ? '-ü' : ''}.txt`,
      size: 1 + (index % 50),
      seed: 100 + (index % 13),
      crcKnown: index % 2 === 0,
    }));
    const { crcs, sha } = await expectedOf(files);
    const { source, layout } = memoryZipSource(files, crcs);
    assert.ok(layout.entryCount > 0xffff);
    const file = path.join(dir, 'many.zip');
    await writeZipTo(source, file);
    assert.equal((await stat(file)).size, layout.totalBytes);
    await assertStockReadersAccept(file, sha);
  });

  test('more than 4 GiB: ZIP64 sizes and offsets, read by unzip, zipfile and 7-Zip', {
    skip: process.env.COFFER_TEST_LONG !== '1' && 'long (npm run test:long)',
  }, async () => {
    const files: SyntheticFile[] = [
      { name: 'first.txt', size: 10, seed: 7, crcKnown: true },
      { name: 'big/über.bin', size: 2 ** 32 + 17, seed: 8, crcKnown: false },
      { name: 'after.bin', size: 100_000, seed: 9, crcKnown: true },
      { name: 'after-unknown.bin', size: 5, seed: 10, crcKnown: false },
    ];
    const { crcs, sha } = await expectedOf(files);
    const { source, layout } = memoryZipSource(files, crcs);
    assert.ok(layout.offset > 2 ** 32);
    const file = path.join(dir, 'big.zip');
    await writeZipTo(source, file);
    assert.equal((await stat(file)).size, layout.totalBytes);
    await assertStockReadersAccept(file, sha);
    await rm(file);
  });
});
