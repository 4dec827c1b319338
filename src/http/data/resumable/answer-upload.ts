import type { FastifyReply, FastifyRequest } from 'fastify';
import { verifyOnLastByte } from '../../../domain/resumable/auto-verify.ts';
import type { UploadStatus } from '../../../domain/resumable/resumable-uploads.ts';
import type { Services } from '../../../services.ts';
import { toFileView } from '../../wire/to-wire.ts';
import { sendUploadStatus } from './tus-protocol.ts';

/** Set (to `true`) on the answers of an auto-verified upload once its record is verified. */
export const verifiedHeader = 'coffer-file-verified';

/**
 * A tus answer (issue 43, docs/decisions.md "The last PATCH of an auto-verified upload"): the
 * upload's status headers and `code`, as tus wants; for an upload auto-verified on its last
 * byte, the verify runs first, and the answer carries `Coffer-File-Verified: true` and, but
 * for HEAD, the verified record as JSON (as POST …/verify answers it), a PATCH then answering
 * 200 for its body. A failed verify answers its own error instead (the upload stays complete;
 * a retry, or POST …/verify, runs the verify again).
 */
export async function answerUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  status: UploadStatus,
  code: 200 | 201 | 204,
): Promise<FastifyReply> {
  const client = { ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 256) ?? null };
  const verified = await verifyOnLastByte(services, status, client);
  sendUploadStatus(reply, status).header('coffer-file-id', status.target.fileId);
  if (!verified) return reply.code(code).send();
  reply.header(verifiedHeader, 'true');
  if (request.method === 'HEAD') return reply.code(code).send();
  return reply.code(code === 204 ? 200 : code).send(toFileView(verified));
}
