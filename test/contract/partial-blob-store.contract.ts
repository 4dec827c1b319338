import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { newBlobVersion } from '../../src/blob-stores/blob-key.ts';
import type { BlobStore } from '../../src/domain/blobs/blob-store.ts';
import type { PartialBlob, PartialBlobStore } from '../../src/domain/resumable/partial-blob-store.ts';
import { etagIn, readAll } from '../support/byte-streams.ts';
import { newKey } from './blob-store.contract.ts';

export type PartialBlobStoreFixture = {
  partials: PartialBlobStore;
  /** A BlobStore over the same directory or bucket: it reads what complete() published. */
  blobs: BlobStore;
  /**
   * complete()'s ETag is the truncated SHA-256 of the bytes, as the disk's BlobStore tags them;
   * otherwise (S3's multipart tag) only a quoted tag is required.
   */
  tagsWithSha256: boolean;
  /** What the store keeps of an upload besides its published version (files, parts, tails). */
  leftovers(blob: PartialBlob): Promise<string[]>;
  cleanup(): Promise<void>;
};

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The conformance suite every PartialBlobStore runs. Sizes cross 5 MiB, the part size the S3
 * fixtures use, so parts, parked tails and their read-back all take part.
 */
export function runPartialBlobStoreContract(
  name: string,
  create: () => Promise<PartialBlobStoreFixture>,
): void {
  describe(`PartialBlobStore contract: ${name}`, () => {
    let fixture: PartialBlobStoreFixture;
    let partials: PartialBlobStore;
    before(async () => {
      fixture = await create();
      partials = fixture.partials;
    });
    after(() => fixture.cleanup());

    const begin = async (length: number): Promise<PartialBlob> => {
      const blob = { key: newKey(), version: newBlobVersion(), length };
      return { ...blob, storeState: await partials.begin(blob, 'application/octet-stream') };
    };
    const append = (blob: PartialBlob, offset: number, bytes: Buffer) =>
      partials.append(blob, offset, chunked(bytes).body);
    const complete = (blob: PartialBlob, sha256?: Buffer) =>
      partials.complete(blob, { contentType: 'application/octet-stream', ...(sha256 && { sha256 }) });
    const readVersion = async (blob: PartialBlob) => {
      const got = await fixture.blobs.get(blob.key, blob.version);
      return got && readAll(got.body);
    };

    it('publishes chunks of odd sizes, appended in turn, as one version of exactly the length', async () => {
      const sizes = [1, 5 * MiB + 3, 17 * KiB, 1, 3 * MiB + 7, 2 * MiB];
      const whole = randomBytes(sizes.reduce((sum, size) => sum + size, 0));
      const blob = await begin(whole.length);
      let offset = 0;
      for (const size of sizes) {
        const answer = await append(blob, offset, whole.subarray(offset, offset + size));
        assert.deepEqual(answer, { offset: offset + size });
        offset += size;
      }
      const stored = await complete(blob);
      assert.equal(stored.version, blob.version);
      assert.equal(stored.sizeBytes, whole.length);
      assert.match(stored.etag, /^"[^"]+"$/);
      if (fixture.tagsWithSha256) assert.equal(stored.etag, etagIn('truncated-sha256', whole));
      assert.ok((await readVersion(blob))?.equals(whole), 'the version holds the bytes, in order');
    });

    it("tags a version with the caller's SHA-256 when given one", async () => {
      const whole = randomBytes(40 * KiB + 3);
      const blob = await begin(whole.length);
      assert.deepEqual(await append(blob, 0, whole.subarray(0, 3)), { offset: 3 });
      assert.deepEqual(await append(blob, 3, whole.subarray(3)), { offset: whole.length });
      const stored = await complete(blob, createHash('sha256').update(whole).digest());
      assert.match(stored.etag, /^"[^"]+"$/);
      if (fixture.tagsWithSha256) assert.equal(stored.etag, etagIn('truncated-sha256', whole));
      assert.ok((await readVersion(blob))?.equals(whole));
      if (!fixture.tagsWithSha256) return;
      // The caller vouches for its digest: the bytes are not read back, the tag is made of it.
      const vouched = await begin(3);
      assert.deepEqual(await append(vouched, 0, Buffer.from('abc')), { offset: 3 });
      const tagged = await complete(vouched, createHash('sha256').update('other bytes').digest());
      assert.equal(tagged.etag, etagIn('truncated-sha256', 'other bytes'));
    });

    it('keeps what arrived of a body that fails midway, and resumes from there', async () => {
      const whole = randomBytes(12 * MiB + 5);
      const blob = await begin(whole.length);
      const cut = chunked(whole, { failAfterBytes: 7 * MiB + 5 });
      const first = await partials.append(blob, 0, cut.body);
      assert.ok(first.failure, 'the answer carries the failure');
      assert.ok(
        first.offset > 0 && first.offset <= cut.sentBytes(),
        `kept ${first.offset} of ${cut.sentBytes()}`,
      );
      const again = chunked(whole.subarray(first.offset), { failAfterBytes: 3 });
      const second = await partials.append(blob, first.offset, again.body);
      assert.ok(second.failure);
      assert.ok(second.offset >= first.offset && second.offset <= first.offset + again.sentBytes());
      const rest = await append(blob, second.offset, whole.subarray(second.offset));
      assert.deepEqual(rest, { offset: whole.length });
      assert.equal((await complete(blob)).sizeBytes, whole.length);
      assert.ok((await readVersion(blob))?.equals(whole), 'the version holds the bytes, in order');
    });

    it("drops bytes past the row's offset: the next append there overwrites them", async () => {
      const [first, second] = [randomBytes(100), randomBytes(100)];
      const blob = await begin(140);
      assert.deepEqual(await append(blob, 0, first), { offset: 100 });
      // As if the row held 40 (a crash before it moved, or a refused chunk).
      assert.deepEqual(await append(blob, 40, second), { offset: 140 });
      await complete(blob);
      assert.ok((await readVersion(blob))?.equals(Buffer.concat([first.subarray(0, 40), second])));
    });

    it('makes the version readable at complete() only, and answers the same when completed again', async () => {
      const whole = randomBytes(6 * MiB + 1);
      const blob = await begin(whole.length);
      await append(blob, 0, whole);
      assert.equal(await fixture.blobs.get(blob.key, blob.version), undefined, 'not readable before');
      const first = await complete(blob);
      const second = await complete(blob);
      assert.deepEqual(toComparable(second), toComparable(first));
      assert.deepEqual(
        await fixture.blobs.head(blob.key, blob.version).then((info) => info?.sizeBytes),
        whole.length,
      );
      assert.ok((await readVersion(blob))?.equals(whole));
      await partials.cleanUp(blob);
      await partials.cleanUp(blob);
      assert.deepEqual(await fixture.leftovers(blob), [], 'only the version is left');
    });

    it('publishes an empty upload, once', async () => {
      const blob = await begin(0);
      assert.deepEqual(await append(blob, 0, Buffer.alloc(0)), { offset: 0 });
      const first = await complete(blob);
      assert.equal(first.sizeBytes, 0);
      assert.deepEqual(toComparable(await complete(blob)), toComparable(first));
      assert.equal((await readVersion(blob))?.length, 0);
    });

    it("removes everything of an aborted upload, twice if asked, and another upload's bytes stay", async () => {
      const whole = randomBytes(6 * MiB + 3);
      const [blob, other, idle] = [await begin(whole.length), await begin(whole.length), await begin(10)];
      // Short of the length: on S3 a part, a parked tail and the multipart upload to remove.
      await append(blob, 0, whole.subarray(0, 6 * MiB));
      await append(other, 0, whole.subarray(0, 3));
      assert.notDeepEqual(await fixture.leftovers(blob), [], 'something to remove');
      await partials.abort(blob);
      await partials.abort(blob);
      await partials.abort(idle);
      assert.deepEqual(await fixture.leftovers(blob), []);
      assert.deepEqual(await fixture.leftovers(idle), []);
      assert.equal(await fixture.blobs.head(blob.key, blob.version), undefined);
      assert.deepEqual(await append(other, 3, whole.subarray(3)), { offset: whole.length });
      await complete(other);
      assert.ok((await readVersion(other))?.equals(whole));
    });
  });
}

/** What two answers for one version must share (the date to the millisecond, not the object). */
function toComparable(stored: { version: string; sizeBytes: number; etag: string; lastModified: Date }) {
  return { ...stored, lastModified: stored.lastModified.getTime() };
}

/**
 * `bytes` as a stream of 64 KiB chunks that, given `failAfterBytes`, fails once it has sent
 * exactly that many (a client gone midway).
 */
function chunked(bytes: Buffer, options: { failAfterBytes?: number } = {}) {
  const chunkBytes = 64 * KiB;
  let sentBytes = 0;
  async function* chunks() {
    while (sentBytes < bytes.length) {
      const end = Math.min(bytes.length, sentBytes + chunkBytes, options.failAfterBytes ?? bytes.length);
      if (end === sentBytes) throw new Error('the client went away');
      yield bytes.subarray(sentBytes, end);
      sentBytes = end;
    }
  }
  return { body: Readable.from(chunks(), { objectMode: false }), sentBytes: () => sentBytes };
}
