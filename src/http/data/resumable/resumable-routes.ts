import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayLink } from '../../../domain/files/get-linked-file.ts';
import type { ResumableUploads } from '../../../domain/resumable/resumable-uploads.ts';
import { uploadNotFound, validationFailed } from '../../../errors/errors.ts';
import type { Services } from '../../../services.ts';
import type { RouteRegistrar } from '../../route-context.ts';
import { toGatewayLink } from '../gateway-link.ts';
import { abortOnIdle } from './abort-on-idle.ts';
import { answerUpload } from './answer-upload.ts';
import {
  assertOffsetBody,
  assertTusResumable,
  parseByteCount,
  parseUploadChecksum,
  tusVersion,
} from './tus-protocol.ts';

const UploadParams = Type.Object({ uploadId: Type.String() });
type UploadRequest = FastifyRequest<{ Params: { uploadId: string } }>;
type Handler = (
  request: UploadRequest,
  reply: FastifyReply,
  uploads: ResumableUploads,
  services: Services,
) => Promise<unknown>;

/**
 * /blob/v1/uploads/:uploadId: a resumable upload's URL (tus 1.0 core, termination, expiration,
 * checksum; issue 20). Like the other gateway links, the signed query string is the credential.
 * A POST with X-HTTP-Method-Override stands for the method it names (tus: for clients whose
 * network lets only GET and POST through).
 */
export const resumableRoutes: RouteRegistrar = (app, services) => {
  const route = (method: 'HEAD' | 'PATCH' | 'DELETE' | 'POST', streamsBody: boolean, handler: Handler) =>
    app.route({
      method,
      url: '/uploads/:uploadId',
      // A lone HEAD is left out of the OpenAPI document unless it asks to be shown.
      config: { streamsBody, swagger: { exposeHeadRoute: method === 'HEAD' } },
      schema: { hide: true, params: UploadParams },
      handler: async (request, reply) => {
        reply.header('tus-resumable', tusVersion);
        assertTusResumable(request);
        if (!services.resumableUploads) throw uploadNotFound();
        return handler(request as UploadRequest, reply, services.resumableUploads, services);
      },
    });
  route('HEAD', false, headUpload);
  route('PATCH', true, patchUpload);
  route('DELETE', false, deleteUpload);
  route('POST', true, overriddenMethod);
};

const byMethod: Record<string, Handler> = { HEAD: headUpload, PATCH: patchUpload, DELETE: deleteUpload };

function overriddenMethod(
  request: UploadRequest,
  reply: FastifyReply,
  uploads: ResumableUploads,
  services: Services,
) {
  const method = request.headers['x-http-method-override'];
  const handler = typeof method === 'string' ? byMethod[method.toUpperCase()] : undefined;
  if (!handler)
    throw validationFailed('A POST to an upload needs X-HTTP-Method-Override: PATCH, HEAD or DELETE');
  return handler(request, reply, uploads, services);
}

async function headUpload(
  request: UploadRequest,
  reply: FastifyReply,
  uploads: ResumableUploads,
  services: Services,
) {
  const status = await uploads.status(toUploadLink(request));
  return answerUpload(request, reply, services, status, 200);
}

async function patchUpload(
  request: UploadRequest,
  reply: FastifyReply,
  uploads: ResumableUploads,
  services: Services,
) {
  const link = toUploadLink(request);
  const offset = parseByteCount(request.headers['upload-offset'], 'Upload-Offset');
  assertOffsetBody(request);
  const checksum = parseUploadChecksum(request.headers['upload-checksum']);
  const status = await abortOnIdle(request.raw, () =>
    uploads.append(link, { offset, body: request.raw, ...(checksum && { checksum }) }),
  );
  return answerUpload(request, reply, services, status, 204);
}

async function deleteUpload(request: UploadRequest, reply: FastifyReply, uploads: ResumableUploads) {
  await uploads.terminate(toUploadLink(request));
  return reply.code(204).send();
}

/** security: a malformed URL is as unknown as a wrong one (UPLOAD_NOT_FOUND, no oracle). */
function toUploadLink(request: UploadRequest): GatewayLink {
  try {
    return toGatewayLink(request.url, { fileId: request.params.uploadId });
  } catch {
    throw uploadNotFound();
  }
}
