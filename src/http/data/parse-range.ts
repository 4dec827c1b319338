import type { FastifyReply } from 'fastify';
import type { ByteRange } from '../../domain/blobs/blob-store.ts';
import { rangeNotSatisfiable } from '../../errors/errors.ts';

/**
 * RFC 9110 §14.2: one `bytes=` range → an inclusive ByteRange; a range past the end →
 * 'unsatisfiable' (416). Several ranges or a malformed header → undefined, and the whole
 * content is sent, which the RFC allows.
 */
export function parseRange(
  header: string | undefined,
  sizeBytes: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || sizeBytes === 0) return 'unsatisfiable';
    return { start: Math.max(0, sizeBytes - length), end: sizeBytes - 1 };
  }
  const start = Number(first);
  const end = last === '' ? sizeBytes - 1 : Math.min(Number(last), sizeBytes - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= sizeBytes) return 'unsatisfiable';
  return { start, end };
}

/**
 * Answers the Range header of a request for `sizeBytes` of content: 416 when unsatisfiable;
 * otherwise sets the status (206 for a range), Content-Range and Content-Length, and returns
 * the inclusive range of bytes to send (all of them without a Range). Empty content: null.
 */
export function answerRange(
  reply: FastifyReply,
  header: string | undefined,
  sizeBytes: number,
): ByteRange | null {
  const range = parseRange(header, sizeBytes);
  if (range === 'unsatisfiable') throw rangeNotSatisfiable(sizeBytes);
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${sizeBytes}`);
  reply.header('content-length', String(range ? range.end - range.start + 1 : sizeBytes));
  if (sizeBytes === 0) return null;
  return range ?? { start: 0, end: sizeBytes - 1 };
}
