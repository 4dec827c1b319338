import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { BlobStore } from '../../src/domain/ports.ts';
import { bodyOf, generatedBody, md5Of, peakRssGrowth, quotedMd5, readAll } from '../support/byte-streams.ts';

export type BlobStoreFixture = { store: BlobStore; cleanup(): Promise<void> };
export type BlobStoreContractOptions = {
  /** The store keeps bodies in this process (MemoryBlobStore): the RSS budget includes the body. */
  holdsBodiesInMemory?: boolean;
};

const MiB = 1024 * 1024;
const LARGE_BODY_BYTES = 64 * MiB;
const TEXT = 'hello, coffer: 0123456789';

/** The conformance suite every BlobStore runs (tus-node-server style: one suite, all stores). */
export function runBlobStoreContract(
  name: string,
  create: () => Promise<BlobStoreFixture>,
  options: BlobStoreContractOptions = {},
): void {
  describe(`BlobStore contract: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;
    before(async () => {
      fixture = await create();
      store = fixture.store;
    });
    after(() => fixture.cleanup());

    const put = (key: string, text: string, maxBytes = MiB) =>
      store.put(key, bodyOf(text), { contentType: 'text/plain; charset=utf-8', maxBytes });
    const assertHolds = async (key: string, text: string) => {
      assert.equal((await store.head(key))?.etag, quotedMd5(text));
      const got = await store.get(key);
      assert.equal((await readAll(got!.body)).toString(), text);
    };

    it('puts, heads and gets a blob with its quoted MD5 etag and content type', async () => {
      const key = newKey();
      const info = await store.put(key, bodyOf(TEXT), { contentType: 'image/svg+xml', maxBytes: MiB });
      assert.equal(info.etag, quotedMd5(TEXT));
      assert.equal(info.sizeBytes, TEXT.length);
      assert.equal(info.contentType, 'image/svg+xml');
      assert.ok(Math.abs(info.lastModified.getTime() - Date.now()) < 60_000);
      const head = await store.head(key);
      assert.deepEqual({ ...head, lastModified: undefined }, { ...info, lastModified: undefined });
      assert.ok(Math.abs(head!.lastModified.getTime() - info.lastModified.getTime()) < 2_000);
      const got = await store.get(key);
      assert.equal(got?.info.etag, info.etag);
      assert.equal(got?.info.contentType, 'image/svg+xml');
      assert.equal((await readAll(got!.body)).toString(), TEXT);
    });

    it('stores an empty body', async () => {
      const key = newKey();
      assert.equal((await put(key, '')).etag, quotedMd5(''));
      assert.equal((await store.head(key))?.sizeBytes, 0);
      assert.equal((await readAll((await store.get(key))!.body)).length, 0);
    });

    it('replaces the object on overwrite', async () => {
      const key = newKey();
      await put(key, 'first version, longer');
      await put(key, 'second');
      await assertHolds(key, 'second');
      assert.equal((await store.head(key))?.sizeBytes, 'second'.length);
    });

    it('reads inclusive byte ranges, reporting the whole object in info', async () => {
      const key = newKey();
      await put(key, TEXT);
      for (const [start, end] of [
        [0, 0],
        [7, 12],
        [TEXT.length - 1, TEXT.length - 1],
      ] as const) {
        const got = await store.get(key, { range: { start, end } });
        assert.equal((await readAll(got!.body)).toString(), TEXT.slice(start, end + 1));
        assert.equal(got?.info.sizeBytes, TEXT.length);
      }
    });

    it('answers undefined for a missing key, and deletes idempotently', async () => {
      const key = newKey();
      assert.equal(await store.head(key), undefined);
      assert.equal(await store.get(key), undefined);
      await store.delete(key);
      await put(key, TEXT);
      await store.delete(key);
      assert.equal(await store.head(key), undefined);
      assert.equal(await store.get(key), undefined);
    });

    it('accepts exactly maxBytes and refuses one more, keeping nothing', async () => {
      const key = newKey();
      await put(key, 'previous');
      await assert.rejects(put(key, 'x'.repeat(11), 10), { code: 'FILE_TOO_LARGE' });
      await assertHolds(key, 'previous');
      const fresh = newKey();
      await assert.rejects(put(fresh, 'x'.repeat(11), 10), { code: 'FILE_TOO_LARGE' });
      assert.equal(await store.head(fresh), undefined);
      assert.equal((await put(fresh, 'y'.repeat(10), 10)).sizeBytes, 10);
    });

    it('refuses a streamed body as soon as it passes maxBytes', async () => {
      const key = newKey();
      let sentBytes = 0;
      const { body } = generatedBody(8 * MiB, { onProgress: (sent) => (sentBytes = sent) });
      await assert.rejects(store.put(key, body, { contentType: 'a/b', maxBytes: MiB }), {
        code: 'FILE_TOO_LARGE',
      });
      assert.ok(sentBytes < 8 * MiB, `read ${sentBytes} bytes of an oversized body`);
      assert.equal(await store.head(key), undefined);
    });

    it('rejects when the source fails mid-way, keeping the previous object', async () => {
      const key = newKey();
      await put(key, 'previous');
      const { body } = generatedBody(2 * MiB, { failAtBytes: MiB });
      await assert.rejects(store.put(key, body, { contentType: 'a/b', maxBytes: 8 * MiB }), /mid-way/);
      await assertHolds(key, 'previous');
      const fresh = newKey();
      const second = generatedBody(2 * MiB, { failAtBytes: MiB });
      await assert.rejects(store.put(fresh, second.body, { contentType: 'a/b', maxBytes: 8 * MiB }));
      assert.equal(await store.head(fresh), undefined);
    });

    it('rejects when the signal aborts, before or during the upload, keeping the previous object', async () => {
      const key = newKey();
      await put(key, 'previous');
      const controller = new AbortController();
      const { body } = generatedBody(4 * MiB, {
        onProgress: (sent) => sent >= MiB && controller.abort(),
      });
      const options = { contentType: 'a/b', maxBytes: 8 * MiB, signal: controller.signal };
      await assert.rejects(store.put(key, body, options), { name: 'AbortError' });
      await assertHolds(key, 'previous');
      const fresh = newKey();
      const late = generatedBody(MiB);
      await assert.rejects(store.put(fresh, late.body, options), { name: 'AbortError' });
      assert.equal(await store.head(fresh), undefined);
    });

    it('refuses keys that are not slash-separated id segments', async () => {
      for (const key of ['../escape', '/absolute', 'p/../f', 'p//f', 'p/f/', 'p/f.json', '', 'p/f?x']) {
        await assert.rejects(put(key, TEXT), { code: 'VALIDATION_FAILED' }, key);
        await assert.rejects(store.head(key), { code: 'VALIDATION_FAILED' }, key);
        await assert.rejects(store.get(key), { code: 'VALIDATION_FAILED' }, key);
        await assert.rejects(store.delete(key), { code: 'VALIDATION_FAILED' }, key);
      }
    });

    it(`streams a ${LARGE_BODY_BYTES / MiB} MiB body in and out without holding it`, async () => {
      const key = newKey();
      // Warm-up, not measured: the first multipart upload loads SDK code and grows allocator pools.
      await store.put(key, generatedBody(12 * MiB).body, { contentType: 'a/b', maxBytes: 12 * MiB });
      const budget = 64 * MiB + (options.holdsBodiesInMemory ? LARGE_BODY_BYTES : 0);
      const generated = generatedBody(LARGE_BODY_BYTES);
      let info: Awaited<ReturnType<BlobStore['put']>> | undefined;
      const putGrowth = await peakRssGrowth(async () => {
        info = await store.put(key, generated.body, { contentType: 'a/b', maxBytes: LARGE_BODY_BYTES });
      });
      assert.equal(info?.sizeBytes, LARGE_BODY_BYTES);
      const expectedMd5 = generated.etag();
      let read: { etag: string; sizeBytes: number } | undefined;
      const getGrowth = await peakRssGrowth(async () => {
        read = await md5Of((await store.get(key))!.body);
      });
      assert.deepEqual(read, { etag: expectedMd5, sizeBytes: LARGE_BODY_BYTES });
      assert.ok(putGrowth < budget, `RSS grew by ${Math.round(putGrowth / MiB)} MiB during put`);
      assert.ok(getGrowth < budget, `RSS grew by ${Math.round(getGrowth / MiB)} MiB during get`);
      await store.delete(key);
    });
  });
}

/** Keys shaped like Coffer's (`<projectId>/<fileId>`), fresh per test so tests never collide. */
export function newKey(): string {
  return `p${randomBytes(6).toString('base64url')}/f${randomBytes(9).toString('base64url')}`;
}
