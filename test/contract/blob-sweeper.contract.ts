import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BlobStore } from '../../src/domain/blobs/blob-store.ts';
import type { BlobSweeper, StoredObject } from '../../src/domain/blobs/blob-sweeper.ts';
import { bodyOf } from '../support/byte-streams.ts';
import { newKey } from './blob-store.contract.ts';

export type BlobSweeperFixture = { store: BlobStore & BlobSweeper; cleanup(): Promise<void> };

/** The conformance suite of BlobSweeper (what coffer gc lists and removes), run by every store. */
export function runBlobSweeperContract(name: string, create: () => Promise<BlobSweeperFixture>): void {
  describe(`BlobSweeper contract: ${name}`, () => {
    let fixture: BlobSweeperFixture;
    let store: BlobStore & BlobSweeper;
    before(async () => {
      fixture = await create();
      store = fixture.store;
    });
    after(() => fixture.cleanup());

    const put = (key: string, text: string) =>
      store.put(key, bodyOf(text), { contentType: 'text/plain', maxBytes: 1024 });
    /** Every listed object of the given project, with the size of each page seen. */
    const listProject = async (projectId: string, pageSize: number) => {
      const objects: StoredObject[] = [];
      const pageSizes: number[] = [];
      for await (const page of store.listObjects({ pageSize })) {
        pageSizes.push(page.length);
        objects.push(...page.filter((object) => object.key.startsWith(`${projectId}/`)));
      }
      return { objects, pageSizes };
    };

    it('lists every version with its key, version and size, a page at a time', async () => {
      const projectId = newKey().split('/')[0]!;
      const expected: string[] = [];
      for (let i = 0; i < 7; i++) {
        const key = `${projectId}/f${i}`;
        for (const text of ['one', `version two of ${i}`]) {
          const stored = await put(key, text);
          expected.push(`${key}.${stored.version}:${text.length}`);
        }
      }
      const { objects, pageSizes } = await listProject(projectId, 3);
      assert.deepEqual(
        objects.map((object) => `${object.key}.${object.version}:${object.sizeBytes}`).sort(),
        expected.sort(),
      );
      assert.ok(
        pageSizes.every((size) => size > 0 && size <= 3),
        `pages of ${pageSizes}`,
      );
      for (const object of objects) assert.ok(Math.abs(object.lastModified.getTime() - Date.now()) < 60_000);
    });

    it('stops listing what was deleted', async () => {
      const key = newKey();
      const kept = await put(key, 'kept');
      const deleted = await put(key, 'deleted');
      await store.delete(key, deleted.version);
      const { objects } = await listProject(key.split('/')[0]!, 100);
      assert.deepEqual(
        objects.map((object) => object.version),
        [kept.version],
      );
    });

    it('deletes a missing staging object without error', async () => {
      await store.deleteStaging(newKey());
    });

    it('lists no unfinished write once every write has finished', async () => {
      await put(newKey(), 'finished');
      const writes = [];
      for await (const page of store.listUnfinishedWrites({ startedBefore: new Date(), pageSize: 10 })) {
        writes.push(...page);
      }
      assert.deepEqual(writes, []);
    });
  });
}
