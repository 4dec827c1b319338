import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { newBlobVersion } from '../../src/blob-stores/blob-key.ts';
import { FsBlobStore } from '../../src/blob-stores/fs-blob-store.ts';
import { FsPartialStore } from '../../src/blob-stores/fs-partial-store.ts';
import type { PartialBlob } from '../../src/domain/resumable/partial-blob-store.ts';
import { bodyOf } from '../support/byte-streams.ts';
import { mountSmallFilesystem } from '../support/small-filesystem.ts';
import { newKey } from './blob-store.contract.ts';
import { runPartialBlobStoreContract } from './partial-blob-store.contract.ts';

async function createFsPartials(rootDir?: string) {
  const root = rootDir ?? (await mkdtemp(join(tmpdir(), 'coffer-fs-partials-')));
  return {
    partials: new FsPartialStore({ rootDir: root }),
    blobs: new FsBlobStore({ rootDir: root }),
    rootDir: root,
    tagsWithSha256: true,
    leftovers: async (blob: PartialBlob) => {
      const names = await readdir(join(root, '.resumable')).catch(() => []);
      return names.filter((name) => name.startsWith(blob.version));
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

runPartialBlobStoreContract('FsPartialStore', () => createFsPartials());

describe('FsPartialStore on disk', () => {
  let fixture: Awaited<ReturnType<typeof createFsPartials>>;
  before(async () => {
    fixture = await createFsPartials();
  });
  after(() => fixture.cleanup());
  const begin = async (length: number): Promise<PartialBlob> => {
    const blob = { key: newKey(), version: newBlobVersion(), length };
    return { ...blob, storeState: await fixture.partials.begin(blob) };
  };

  it('keeps an upload in .resumable/<version>.part, which the blob store never sweeps', async () => {
    const blob = await begin(10);
    await fixture.partials.append(blob, 0, bodyOf('01234'));
    const partPath = join(fixture.rootDir, '.resumable', `${blob.version}.part`);
    // Older than FsBlobStore's one-hour backstop for abandoned temp files.
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(partPath, twoHoursAgo, twoHoursAgo);
    await new FsBlobStore({ rootDir: fixture.rootDir }).check();
    const listed = [];
    for await (const page of fixture.blobs.listObjects({ pageSize: 10 })) listed.push(...page);
    assert.deepEqual(listed, [], 'no version to list yet');
    assert.deepEqual(await readdir(join(fixture.rootDir, '.resumable')), [`${blob.version}.part`]);
    assert.deepEqual(await fixture.partials.append(blob, 5, bodyOf('56789')), { offset: 10 });
    await fixture.partials.complete(blob, { contentType: 'text/plain' });
    assert.deepEqual(await readdir(join(fixture.rootDir, '.resumable')), []);
  });

  it('keeps exactly the bytes up to the answered offset: none past it, all of a failing body', async () => {
    const blob = await begin(100);
    const partPath = join(fixture.rootDir, '.resumable', `${blob.version}.part`);
    await fixture.partials.append(blob, 0, bodyOf('0123456789'));
    assert.deepEqual(await fixture.partials.append(blob, 4, bodyOf('ab')), { offset: 6 });
    assert.equal(await readFile(partPath, 'utf8'), '0123ab');
    async function* failing() {
      yield Buffer.from('cdef');
      throw new Error('the client went away');
    }
    const answer = await fixture.partials.append(blob, 6, Readable.from(failing(), { objectMode: false }));
    assert.equal(answer.offset, 10);
    assert.match(String(answer.failure), /went away/);
    assert.equal(await readFile(partPath, 'utf8'), '0123abcdef');
  });

  it('refuses to append at an offset past the bytes it holds, rather than fill the gap', async () => {
    const blob = await begin(10);
    await fixture.partials.append(blob, 0, bodyOf('012'));
    await assert.rejects(fixture.partials.append(blob, 5, bodyOf('56789')), /holds 3 bytes/);
  });

  it('answers STORAGE_FULL when the disk is full and nothing new was kept', async (t) => {
    const disk = await mountSmallFilesystem(1024 * 1024);
    if (typeof disk === 'string') return t.skip(disk);
    try {
      const { partials } = await createFsPartials(disk.dir);
      const blob = { key: newKey(), version: newBlobVersion(), length: 4 * 1024 * 1024 };
      const begun = { ...blob, storeState: await partials.begin(blob) };
      await disk.fill('filler');
      await assert.rejects(partials.append(begun, 0, bodyOf(Buffer.alloc(512 * 1024, 7))), {
        code: 'STORAGE_FULL',
      });
    } finally {
      await disk.unmount();
    }
  });
});
