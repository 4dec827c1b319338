import { LRUCache } from 'lru-cache';
import type { BlobInfo } from '../domain/blobs/blob-store.ts';

/** Versions up to this size are kept in memory once read. */
export const SMALL_BLOB_BYTES = 64 * 1024;
/** All kept versions together: a bounded, small share of the process's memory. */
const CACHE_BYTES = 8 * 1024 * 1024;

export type SmallBlob = { info: BlobInfo; bytes: Buffer };

/**
 * The bytes of small versions, most recently read first. A version never changes once written
 * (blob versions are immutable), so a kept copy can never be stale; whether it may be served
 * is the file record's business, checked before any store is asked. Serving from here skips
 * the open, stat, read and close a small download otherwise waits for on the thread pool.
 */
export function createSmallBlobCache(): LRUCache<string, SmallBlob> {
  return new LRUCache<string, SmallBlob>({
    maxSize: CACHE_BYTES,
    // The entry's own overhead counts too, so that many empty versions stay bounded as well.
    sizeCalculation: (blob) => blob.bytes.length + 256,
  });
}
