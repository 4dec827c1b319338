import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ChunkChecksum, chunkChecksumAlgorithms } from '../../../domain/resumable/chunk-stream.ts';
import type { UploadStatus } from '../../../domain/resumable/resumable-uploads.ts';
import { tusVersionUnsupported, unsupportedMediaType, validationFailed } from '../../../errors/errors.ts';

/** tus 1.0 as Coffer speaks it (issue 20): the discovery answer of OPTIONS. */
export const tusVersion = '1.0.0';
export const tusExtensions = 'creation,creation-with-upload,termination,expiration,checksum';
export const tusChecksumAlgorithms = chunkChecksumAlgorithms.join(',');
/** What a browser's tus client sends and must read back (CORS). */
export const tusRequestHeaders =
  'tus-resumable, upload-length, upload-offset, upload-metadata, upload-checksum, upload-defer-length, upload-concat, x-http-method-override, x-requested-with';
export const tusResponseHeaders =
  'Location, Upload-Offset, Upload-Length, Upload-Expires, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm, ETag, Coffer-File-Id, Coffer-File-Verified, Retry-After';
export const offsetContentType = 'application/offset+octet-stream';

/** Every tus request but OPTIONS names the version it speaks; 412 with Tus-Version otherwise. */
export function assertTusResumable(request: FastifyRequest): void {
  if (request.headers['tus-resumable'] !== tusVersion) throw tusVersionUnsupported();
}

/** A header that must be a non-negative integer, written without sign, exponent or leading zeros. */
export function parseByteCount(value: string | string[] | undefined, name: string): number {
  if (typeof value !== 'string' || !/^(0|[1-9]\d{0,15})$/.test(value))
    throw validationFailed(`${name} must be a non-negative integer`);
  const count = Number(value);
  if (!Number.isSafeInteger(count)) throw validationFailed(`${name} is too large`);
  return count;
}

/** A PATCH (or a creation with bytes) must send its body as application/offset+octet-stream. */
export function assertOffsetBody(request: FastifyRequest): void {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== offsetContentType) throw unsupportedMediaType(`Send the chunk as ${offsetContentType}`);
}

/** Upload-Checksum: `<algorithm> <base64 digest>` of the chunk (tus checksum extension). */
export function parseUploadChecksum(value: string | string[] | undefined): ChunkChecksum | undefined {
  if (value === undefined) return undefined;
  const match = typeof value === 'string' ? /^([a-z0-9-]+) ([A-Za-z0-9+/]+={0,2})$/.exec(value.trim()) : null;
  if (!match) throw validationFailed('Upload-Checksum must be "<algorithm> <base64 digest>"');
  const algorithm = chunkChecksumAlgorithms.find((name) => name === match[1]);
  if (!algorithm) throw validationFailed(`Upload-Checksum: the algorithms are ${tusChecksumAlgorithms}`);
  return { algorithm, base64: match[2] ?? '' };
}

/**
 * Upload-Metadata: comma-separated `key base64value` pairs (a key alone means an empty
 * value). Keys are ASCII without spaces or commas, and must not repeat.
 */
export function parseUploadMetadata(value: string | string[] | undefined): Map<string, string> {
  const metadata = new Map<string, string>();
  if (value === undefined || value === '') return metadata;
  if (typeof value !== 'string') throw validationFailed('Upload-Metadata is given more than once');
  for (const pair of value.split(',')) {
    const match = /^([!-+\--~]+)(?: ([A-Za-z0-9+/]*={0,2}))?$/.exec(pair.trim());
    if (!match?.[1] || metadata.has(match[1])) throw validationFailed('Upload-Metadata is malformed');
    metadata.set(match[1], Buffer.from(match[2] ?? '', 'base64').toString('utf8'));
  }
  return metadata;
}

/** The headers every answer about an upload carries (HEAD must never be cached). */
export function sendUploadStatus(reply: FastifyReply, status: UploadStatus): FastifyReply {
  reply
    .header('upload-offset', String(status.offset))
    .header('upload-length', String(status.length))
    .header('cache-control', 'no-store');
  if (status.etag) reply.header('etag', status.etag);
  return reply.header('upload-expires', status.expiresAt.toUTCString());
}

/** tus discovery: the version, the extensions, the checksums and the largest upload taken. */
export function sendTusDiscovery(reply: FastifyReply, maxSizeBytes: number): FastifyReply {
  return reply
    .header('tus-version', tusVersion)
    .header('tus-extension', tusExtensions)
    .header('tus-checksum-algorithm', tusChecksumAlgorithms)
    .header('tus-max-size', String(maxSizeBytes));
}
