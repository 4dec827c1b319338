import type { FastifyReply } from 'fastify';
import type { FileRecord } from '../../domain/files/file-record.ts';
import { fileJsonBytes, type SerializeFileView } from './kept-file-json.ts';
import { FileRecordSchema } from './schemas.ts';

const filesMarker = '"files":[]';
const comma = Buffer.from(',');

/**
 * Sends a 200 answer whose `files` are these records: the route's own serializer writes the rest
 * (given with `files: []`), each file's JSON is its view's by the view schema's serializer,
 * kept beside the record (kept-file-json.ts), and the parts are joined as bytes. An unescaped `"files":[]` can
 * only be the key itself (inside a JSON string its quotes are escaped), and the answer is the
 * JSON the route's schema would have written.
 */
export function sendJsonWithFiles(
  reply: FastifyReply,
  rest: { files: never[] },
  files: readonly FileRecord[],
): FastifyReply {
  const serializeRest = reply.getSerializationFunction('200') as (value: unknown) => string;
  const serializeFile = reply.compileSerializationSchema(FileRecordSchema) as SerializeFileView;
  const text = serializeRest(rest);
  const at = text.indexOf(filesMarker) + filesMarker.length - 1;
  const parts: Buffer[] = [Buffer.from(text.slice(0, at))];
  for (const [index, file] of files.entries()) {
    if (index > 0) parts.push(comma);
    parts.push(fileJsonBytes(file, serializeFile));
  }
  parts.push(Buffer.from(text.slice(at)));
  // Bytes go out as they are: the route's serializer is not run again on them.
  return reply.type('application/json; charset=utf-8').send(Buffer.concat(parts));
}
