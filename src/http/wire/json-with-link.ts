import type { FastifyReply } from 'fastify';
import type { FileRecord } from '../../domain/files/file-record.ts';
import { fileJsonText, type SerializeFileView } from './kept-file-json.ts';
import { FileRecordSchema } from './schemas.ts';

/** A download link as GET /api/v1/file/:fileId answers it beside the record. */
export type LinkFields = { url: string; expiresAt: number };

/**
 * Sends GET /api/v1/file/:fileId's 200 answer (FileWithLinkSchema: the record's fields, then
 * `url` and `expiresAt`): the record's kept JSON (kept-file-json.ts) without its closing brace,
 * then the two link fields, written as that schema's serializer writes them. Serializing the
 * view again on every GET cost the most where the record is largest: a file shared through
 * three folders answers three `folderAcl` entries with their paths (docs/benchmarks.md).
 */
export function sendFileWithLink(reply: FastifyReply, file: FileRecord, link: LinkFields): FastifyReply {
  const serializeFile = reply.compileSerializationSchema(FileRecordSchema) as SerializeFileView;
  const record = fileJsonText(file, serializeFile);
  // As the schema's serializer writes an integer field: truncated, and never a non-number.
  const expiresAt = Math.trunc(link.expiresAt);
  if (!Number.isFinite(expiresAt)) throw new Error(`expiresAt is not a number: ${link.expiresAt}`);
  const body = `${record.slice(0, -1)},"url":${JSON.stringify(link.url)},"expiresAt":${expiresAt}}`;
  // The text goes out as it is: the route's serializer is not run again on it.
  return reply.type('application/json; charset=utf-8').send(body);
}
