import { type ByteSource, readRange } from './upload-body.ts';

/** How much of each end of a body its fingerprint reads. */
const sampleBytes = 64 * 1024;

/**
 * The key of an upload's state in a resume store: the server and user (another account on the
 * same browser never sees it), the file path, and a fingerprint of the body. The fingerprint
 * is the caller's (a local file's path, size and mtime) or, by default, the body's size, a
 * File's name and lastModified, and a digest of its first and last 64 KiB, so that other
 * bytes of the same size under the same path are not appended to an upload they never began.
 */
export async function toResumeKey(
  scope: { baseUrl: string; userId: string; filePath: string },
  source: ByteSource,
  fingerprint?: string,
): Promise<string> {
  const body = fingerprint ?? (await fingerprintOf(source));
  return `coffer-upload:${JSON.stringify([scope.baseUrl, scope.userId, scope.filePath, body])}`;
}

async function fingerprintOf(source: ByteSource): Promise<string> {
  const size = source.sizeBytes;
  const head = await readRange(source, 0, Math.min(sampleBytes, size));
  const tail = await readRange(source, Math.max(0, size - sampleBytes), size);
  const file = source.file ? [source.file.name, source.file.lastModified] : [];
  return JSON.stringify([size, ...file, fnv1a(fnv1a(0x811c9dc5, head), tail).toString(16)]);
}

/** FNV-1a, 32 bits: no crypto needed (crypto.subtle is absent from pages on plain http). */
function fnv1a(seed: number, bytes: Uint8Array): number {
  let hash = seed;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}
