import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { BlobStore } from '../../src/domain/blobs/blob-store.ts';
import {
  bodyOf,
  type EtagScheme,
  etagIn,
  generatedBody,
  md5Of,
  peakRssGrowth,
  readAll,
} from '../support/byte-streams.ts';

export type BlobStoreFixture = { store: BlobStore; cleanup(): Promise<void> };
export type BlobStoreContractOptions = {
  /** How the store tags a version stored in one part (S3: MD5; disk and memory: truncated SHA-256). */
  etagScheme: EtagScheme;
  /** The store keeps bodies in this process (MemoryBlobStore): the RSS budget includes the body. */
  holdsBodiesInMemory?: boolean;
};

const MiB = 1024 * 1024;
// Larger than the RSS budget below by half again: a store that held the body whole could not
// pass, while allocator and GC noise on a busy machine stays well inside the budget.
const LARGE_BODY_BYTES = 128 * MiB;
const TEXT = 'hello, coffer: 0123456789';

/** The conformance suite every BlobStore runs (tus-node-server style: one suite, all stores). */
export function runBlobStoreContract(
  name: string,
  create: () => Promise<BlobStoreFixture>,
  options: BlobStoreContractOptions,
): void {
  const scheme = options.etagScheme;
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
    const assertHolds = async (key: string, version: string, text: string) => {
      assert.equal((await store.head(key, version))?.sizeBytes, Buffer.byteLength(text));
      const got = await store.get(key, version);
      assert.equal((await readAll(got!.body)).toString(), text);
    };
    const assertNothingUnder = async (key: string) => {
      // Nothing to name it by: a failed put answers no version. Stores list nothing for a key
      // they never published (checked where they can list: the fs and S3 suites).
      assert.equal(await store.head(key, '000000000000000000000000'), undefined);
    };

    it(`puts a new version with its quoted etag (${scheme}), and heads and gets it`, async () => {
      const key = newKey();
      const stored = await store.put(key, bodyOf(TEXT), { contentType: 'image/svg+xml', maxBytes: MiB });
      assert.equal(stored.etag, etagIn(scheme, TEXT));
      assert.equal(stored.sizeBytes, TEXT.length);
      assert.match(stored.version, /^[a-f0-9]{24}$/);
      assert.ok(Math.abs(stored.lastModified.getTime() - Date.now()) < 60_000);
      const head = await store.head(key, stored.version);
      assert.equal(head?.sizeBytes, TEXT.length);
      assert.ok(Math.abs(head!.lastModified.getTime() - stored.lastModified.getTime()) < 2_000);
      const got = await store.get(key, stored.version);
      assert.equal(got?.info.sizeBytes, TEXT.length);
      assert.equal((await readAll(got!.body)).toString(), TEXT);
    });

    it(`answers each of several concurrent puts the tag (${scheme}) of its own bytes`, async () => {
      // Bodies of several MiB in odd-sized chunks, interleaved: stores that hash off the main
      // thread (parallel-md5.ts) batch them, and must never mix two uploads' bytes.
      const bodies = [3, 5, 7].map((fill) =>
        generatedBody(3 * MiB + fill * 1000, { chunkBytes: 10_000 + fill * 777 }),
      );
      const stored = await Promise.all(
        bodies.map((generated) =>
          store.put(newKey(), generated.body, { contentType: 'a/b', maxBytes: 8 * MiB }),
        ),
      );
      stored.forEach((info, index) => {
        assert.equal(info.etag, bodies[index]?.etag(scheme));
        assert.equal(info.sizeBytes, 3 * MiB + [3, 5, 7][index]! * 1000);
      });
    });

    it('stores an empty body', async () => {
      const key = newKey();
      const stored = await put(key, '');
      assert.equal(stored.etag, etagIn(scheme, ''));
      await assertHolds(key, stored.version, '');
    });

    it("tags with the caller's SHA-256, asked once the body has ended, if it tags with one", async () => {
      const body = bodyOf(TEXT);
      let asked = 0;
      const sha256 = () => {
        asked += 1;
        assert.ok(body.readableEnded, 'the digest was asked for before the body ended');
        return createHash('sha256').update(TEXT).digest();
      };
      const stored = await store.put(newKey(), body, { contentType: 'text/plain', maxBytes: MiB, sha256 });
      assert.equal(stored.etag, etagIn(scheme, TEXT));
      const tagsWithSha256 = scheme === 'truncated-sha256';
      assert.equal(asked, tagsWithSha256 ? 1 : 0, 'asked once, or never by a store with tags of its own');
      if (!tagsWithSha256) return;
      // The caller vouches for its digest: the store hashes nothing itself, the tag is made of it.
      const vouched = await store.put(newKey(), bodyOf(TEXT), {
        contentType: 'text/plain',
        maxBytes: MiB,
        sha256: () => createHash('sha256').update('other bytes').digest(),
      });
      assert.equal(vouched.etag, etagIn(scheme, 'other bytes'));
    });

    it('never changes a version: another put of the key makes another version', async () => {
      const key = newKey();
      const first = await put(key, 'first version, longer');
      const second = await put(key, 'second');
      assert.notEqual(first.version, second.version);
      await assertHolds(key, first.version, 'first version, longer');
      await assertHolds(key, second.version, 'second');
    });

    it('reads inclusive byte ranges, reporting the whole object in info', async () => {
      const key = newKey();
      const { version } = await put(key, TEXT);
      for (const [start, end] of [
        [0, 0],
        [7, 12],
        [TEXT.length - 1, TEXT.length - 1],
      ] as const) {
        const got = await store.get(key, version, { range: { start, end } });
        assert.equal((await readAll(got!.body)).toString(), TEXT.slice(start, end + 1));
        assert.equal(got?.info.sizeBytes, TEXT.length);
      }
    });

    it('reads large versions as streams, whole and in ranges across 1 MiB edges', async () => {
      const key = newKey();
      const bytes = randomBytes(2 * MiB + MiB / 2);
      const { version } = await store.put(key, bodyOf(bytes), {
        contentType: 'application/octet-stream',
        maxBytes: 4 * MiB,
      });
      for (const range of [
        undefined,
        { start: MiB - 3, end: 2 * MiB + 2 },
        { start: 5, end: bytes.length - 1 },
      ]) {
        const got = await store.get(key, version, { range });
        const expected = range ? bytes.subarray(range.start, range.end + 1) : bytes;
        assert.ok((await readAll(got!.body)).equals(expected), `range ${JSON.stringify(range)}`);
      }
      // A body its reader gives up on is destroyed without an error.
      const abandoned = await store.get(key, version);
      assert.ok(!Buffer.isBuffer(abandoned!.body));
      const closed = new Promise((resolve) => (abandoned!.body as Readable).once('close', resolve));
      (abandoned!.body as Readable).destroy();
      await closed;
    });

    it('answers undefined for a missing version, and deletes one version idempotently', async () => {
      const key = newKey();
      const missing = 'abcdef0123456789abcdef01';
      assert.equal(await store.head(key, missing), undefined);
      assert.equal(await store.get(key, missing), undefined);
      await store.delete(key, missing);
      const kept = await put(key, 'kept');
      const deleted = await put(key, TEXT);
      // Read once first: a store that keeps small versions in memory must forget it on delete.
      await assertHolds(key, deleted.version, TEXT);
      await store.delete(key, deleted.version);
      await store.delete(key, deleted.version);
      assert.equal(await store.head(key, deleted.version), undefined);
      assert.equal(await store.get(key, deleted.version), undefined);
      await assertHolds(key, kept.version, 'kept');
    });

    it('accepts exactly maxBytes and refuses one more, keeping nothing', async () => {
      const key = newKey();
      const previous = await put(key, 'previous');
      await assert.rejects(put(key, 'x'.repeat(11), 10), { code: 'FILE_TOO_LARGE' });
      await assertHolds(key, previous.version, 'previous');
      const fresh = newKey();
      await assert.rejects(put(fresh, 'x'.repeat(11), 10), { code: 'FILE_TOO_LARGE' });
      await assertNothingUnder(fresh);
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
    });

    it('rejects when the source fails mid-way, keeping the other versions', async () => {
      const key = newKey();
      const previous = await put(key, 'previous');
      const { body } = generatedBody(2 * MiB, { failAtBytes: MiB });
      await assert.rejects(store.put(key, body, { contentType: 'a/b', maxBytes: 8 * MiB }), /mid-way/);
      await assertHolds(key, previous.version, 'previous');
    });

    it('rejects when the signal aborts, before or during the upload', async () => {
      const key = newKey();
      const previous = await put(key, 'previous');
      const controller = new AbortController();
      const { body } = generatedBody(4 * MiB, {
        onProgress: (sent) => sent >= MiB && controller.abort(),
      });
      const options = { contentType: 'a/b', maxBytes: 8 * MiB, signal: controller.signal };
      await assert.rejects(store.put(key, body, options), { name: 'AbortError' });
      await assertHolds(key, previous.version, 'previous');
      const late = generatedBody(MiB);
      await assert.rejects(store.put(newKey(), late.body, options), { name: 'AbortError' });
    });

    it('refuses keys that are not slash-separated id segments, and versions not its own', async () => {
      const version = (await put(newKey(), TEXT)).version;
      for (const key of ['../escape', '/absolute', 'p/../f', 'p//f', 'p/f/', 'p/f.json', '', 'p/f?x']) {
        await assert.rejects(put(key, TEXT), { code: 'VALIDATION_FAILED' }, key);
        await assert.rejects(store.head(key, version), { code: 'VALIDATION_FAILED' }, key);
        await assert.rejects(store.get(key, version), { code: 'VALIDATION_FAILED' }, key);
        await assert.rejects(store.delete(key, version), { code: 'VALIDATION_FAILED' }, key);
      }
      for (const bad of ['../x', 'ABCDEF0123456789ABCDEF01', 'abc', `${version}/x`, '']) {
        await assert.rejects(store.get(newKey(), bad), { code: 'VALIDATION_FAILED' }, bad);
      }
    });

    it(`streams a ${LARGE_BODY_BYTES / MiB} MiB body in and out without holding it`, async () => {
      const key = newKey();
      // Warm-up, not measured: the first multipart upload loads SDK code and grows allocator pools.
      await store.put(key, generatedBody(12 * MiB).body, { contentType: 'a/b', maxBytes: 12 * MiB });
      // A store that holds bodies (memory) keeps the chunks and then their concatenation.
      const budget = 96 * MiB + (options.holdsBodiesInMemory ? 2 * LARGE_BODY_BYTES : 0);
      const generated = generatedBody(LARGE_BODY_BYTES);
      let info: Awaited<ReturnType<BlobStore['put']>> | undefined;
      const putGrowth = await peakRssGrowth(async () => {
        info = await store.put(key, generated.body, { contentType: 'a/b', maxBytes: LARGE_BODY_BYTES });
      });
      assert.equal(info?.sizeBytes, LARGE_BODY_BYTES);
      // One part on the local stores: the tag covers every byte (S3 tags the parts instead).
      if (scheme === 'truncated-sha256') assert.equal(info?.etag, generated.etag(scheme));
      const expectedMd5 = generated.etag('md5');
      let read: { etag: string; sizeBytes: number } | undefined;
      const getGrowth = await peakRssGrowth(async () => {
        read = await md5Of((await store.get(key, info!.version))!.body);
      });
      assert.deepEqual(read, { etag: expectedMd5, sizeBytes: LARGE_BODY_BYTES });
      assert.ok(putGrowth < budget, `RSS grew by ${Math.round(putGrowth / MiB)} MiB during put`);
      assert.ok(getGrowth < budget, `RSS grew by ${Math.round(getGrowth / MiB)} MiB during get`);
      await store.delete(key, info!.version);
    });
  });
}

/** Keys shaped like Coffer's (`<projectId>/<fileId>`), fresh per test so tests never collide. */
export function newKey(): string {
  return `p${randomBytes(6).toString('base64url')}/f${randomBytes(9).toString('base64url')}`;
}
