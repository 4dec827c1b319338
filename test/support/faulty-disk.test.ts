import assert from 'node:assert/strict';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import {
  type FaultyDiskKind,
  findFaultyDiskObstacle,
  mountFaultyDisk,
  skipFaultyDiskKind,
} from './faulty-disk.ts';
import { chooseSeed, seededRandom } from './seeded-random.ts';

const MiB = 1024 * 1024;

/*
 * The faulty disks may refuse writes, but must never lose one they acknowledged: a disk that
 * answers fsync() and then loses the bytes is one no store can be held to, and the storage
 * fault suite would blame Coffer for it. Issue 25 item 7: the thin disk did (the loop device
 * took a write its full backing tmpfs kept only part of as done), and a verified file then
 * downloaded zeros once the page cache forgot its bytes. Here, the same load as that suite's
 * (32 writers of up to 3 MiB on 2 MiB of room, each fsyncing), then repair() and every
 * acknowledged file read back from the device.
 */
describe('faulty disks refuse writes but keep every write they acknowledged', () => {
  const seed = chooseSeed('faulty disks');
  let obstacle: string | undefined;
  before(async () => {
    obstacle = await findFaultyDiskObstacle();
  });

  for (const [index, kind] of (['full', 'thin', 'failing'] as FaultyDiskKind[]).entries()) {
    it(`${kind}: what fsync() acknowledged reads back whole after repair()`, async (t) => {
      if (obstacle) return t.skip(obstacle);
      const skipped = skipFaultyDiskKind(kind);
      if (skipped) return t.skip(skipped);
      const random = seededRandom(seed + index);
      let refused = 0;
      // Rounds, because a lost write needs a write to meet the disk filling up part-way.
      for (let round = 0; round < 4; round++) {
        const disk = await mountFaultyDisk(kind, { sizeBytes: 2 * MiB });
        try {
          const written = await Promise.all(
            Array.from({ length: 32 }, async (_, file) => {
              const name = path.join(disk.dir, `file-${file}`);
              const bytes = random.bytes(random.int(0, 3 * MiB), `${kind}-${round}-${file}`);
              return (await writeDurably(name, bytes)) ? [{ name, bytes }] : [];
            }),
          );
          const acknowledged = written.flat();
          refused += 32 - acknowledged.length;
          await disk.repair();
          for (const { name, bytes } of acknowledged)
            assert.ok(
              bytes.equals(await readFile(name)),
              `${kind} disk, round ${round} (seed ${seed}): ${path.basename(name)} (${bytes.length} bytes) lost bytes fsync() acknowledged`,
            );
        } finally {
          await disk.remove();
        }
      }
      assert.ok(refused > 0, `the ${kind} disk should have refused some writes`);
    });
  }
});

/** Writes and fsyncs a new file as the fs store does; answers whether the disk took it. */
async function writeDurably(name: string, bytes: Buffer): Promise<boolean> {
  const handle = await open(name, 'wx');
  try {
    // A write may take fewer bytes than it was given (a filling tmpfs does): go on from there,
    // as the fs store's write streams do; counting a short write as whole would blame the disk.
    for (let offset = 0; offset < bytes.length; ) {
      const { bytesWritten } = await handle.write(bytes, offset, Math.min(64 * 1024, bytes.length - offset));
      if (bytesWritten === 0) return false;
      offset += bytesWritten;
    }
    await handle.sync();
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!['ENOSPC', 'EIO', 'EROFS'].includes(code)) throw error;
    return false;
  } finally {
    await handle.close().catch(() => {});
  }
}
