import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MemoryBlobStore } from '../../src/blob-stores/memory-blob-store.ts';
import { openBlobStore } from '../../src/blob-stores/open-blob-store.ts';
import type { BlobStore } from '../../src/domain/blobs/blob-store.ts';
import { openMediaFile, toWindows } from '../../src/media/media-files.ts';
import { createMediaDecoder, type ToolMediaDecoder } from '../../src/media/tool-media-decoder.ts';
import {
  type MediaFixtures,
  mediaFixtures,
  readQuadrants,
  skipWithoutMediaTools,
  upright,
} from '../support/media-fixtures.ts';
import { currentStackName, prepareTestStack, type TestStack } from '../support/test-stack.ts';

// A stored version handed to a tool (issue 39): the disk store's own file, or, from a store
// without one (S3 on the pg-s3 pass, memory here), a sparse copy of its head and tail, enough for
// ffprobe to find an MP4's index at its end while reading a bounded number of bytes.

const limits = { maxPixels: 50_000_000, maxMemoryBytes: 200 * 1024 * 1024, timeoutSeconds: 20 };

describe('openMediaFile', { skip: skipWithoutMediaTools }, () => {
  let fixtures: MediaFixtures;
  let stack: TestStack;
  let decoder: ToolMediaDecoder;
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-media-files-'));
  const stores: [string, BlobStore][] = [];
  before(async () => {
    fixtures = await mediaFixtures();
    stack = await prepareTestStack();
    const storageUrl = stack.settings['storage-url'] ?? `file:${path.join(dir, 'blobs')}`;
    stores.push([
      currentStackName() === 'pg-s3' ? 'the S3 store' : 'the disk store',
      await openBlobStore(storageUrl),
    ]);
    stores.push(['the memory store', new MemoryBlobStore()]);
    decoder = createMediaDecoder(
      { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', heifDecoderPath: undefined },
      { log: { warn: () => {} } },
    );
  });
  after(async () => {
    await decoder.close();
    await stack.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const store = async (blobs: BlobStore, file: string) => {
    const key = `media/${randomBytes(9).toString('hex')}`;
    const stored = await blobs.put(key, createReadStream(file), {
      contentType: 'application/octet-stream',
      maxBytes: 10 * 1024 * 1024,
    });
    return { key, version: stored.version, sizeBytes: stored.sizeBytes };
  };

  it('splits a version into its head and tail windows, or keeps it whole when it fits twice the window', () => {
    assert.deepEqual(toWindows(0, 100), []);
    assert.deepEqual(toWindows(200, 100), [{ start: 0, end: 199 }]);
    assert.deepEqual(toWindows(201, 100), [
      { start: 0, end: 99 },
      { start: 101, end: 200 },
    ]);
  });

  for (const index of [0, 1])
    it(`from ${index === 0 ? "this stack's store" : 'the memory store'}: a file a tool reads, the same bytes, released afterwards`, async () => {
      const [, blobs] = stores[index]!;
      const media = await store(blobs, fixtures.h264Mp4);
      const file = await openMediaFile(blobs, media, { windowBytes: 1024 * 1024, dir });
      try {
        assert.deepEqual(readFileSync(file.path), readFileSync(fixtures.h264Mp4));
        const localPath = await blobs.localPath?.(media.key, media.version);
        // The disk store's own file, else a private copy.
        if (localPath) assert.equal(file.path, localPath);
        else assert.equal(statSync(file.path).mode & 0o777, 0o600);
        const header = await decoder.probeVideo(file, limits);
        assert.equal(header.durationSeconds, 2);
        assert.deepEqual(await readQuadrants(await decoder.decodeStill(file, header, limits)), upright);
      } finally {
        await file.release();
      }
      const localPath = await blobs.localPath?.(media.key, media.version);
      assert.equal(
        statSync(localPath ?? file.path, { throwIfNoEntry: false }) !== undefined,
        localPath !== undefined,
      );
    });

  it("from a store without local files: a window copy holds the head and the tail, and ffprobe finds the MP4's index at its end", async () => {
    const blobs = stores.find(([, candidate]) => !candidate.localPath)?.[1] ?? stores[1]![1];
    const bytes = readFileSync(fixtures.h264Mp4);
    const windowBytes = Math.floor(bytes.length / 4);
    const media = await store(blobs, fixtures.h264Mp4);
    const file = await openMediaFile(blobs, media, { windowBytes, dir });
    try {
      const copy = readFileSync(file.path);
      assert.equal(copy.length, bytes.length);
      assert.deepEqual(copy.subarray(0, windowBytes), bytes.subarray(0, windowBytes));
      assert.deepEqual(copy.subarray(-windowBytes), bytes.subarray(-windowBytes));
      assert.ok(copy.subarray(windowBytes, -windowBytes).every((byte) => byte === 0));
      // ffmpeg writes `moov` last: it is in the tail window.
      assert.ok(bytes.lastIndexOf('moov') > bytes.length - windowBytes);
      assert.deepEqual(await decoder.probeVideo(file, limits), {
        kind: 'video',
        width: 160,
        height: 96,
        durationSeconds: 2,
        videoCodec: 'h264',
        audioCodec: 'aac',
      });
    } finally {
      await file.release();
    }
  });

  it('a HEIC from each store, opened by the decoder into its own directory, decodes upright', async () => {
    for (const [, blobs] of stores) {
      const media = await store(blobs, fixtures.gridHeic);
      const file = await decoder.openFile(blobs, media, { windowBytes: 1024 * 1024 });
      try {
        const header = decoder.readHeifHeader(readFileSync(file.path), limits)!;
        assert.deepEqual(await readQuadrants(await decoder.decodeStill(file, header, limits)), upright);
      } finally {
        await file.release();
      }
    }
  });
});
