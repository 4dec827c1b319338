import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { PermissionScope } from '../../../domain/files/file-record.ts';
import { toUploadContract } from '../../../domain/files/upload-contract.ts';
import { requestResumableUpload } from '../../../domain/resumable/request-resumable-upload.ts';
import type { UploadStatus } from '../../../domain/resumable/resumable-uploads.ts';
import { isAppError } from '../../../errors/app-error.ts';
import { validationFailed } from '../../../errors/errors.ts';
import type { Services } from '../../../services.ts';
import { toGatewayLink } from '../../data/gateway-link.ts';
import { abortOnIdle } from '../../data/resumable/abort-on-idle.ts';
import { answerUpload } from '../../data/resumable/answer-upload.ts';
import {
  assertOffsetBody,
  assertTusResumable,
  offsetContentType,
  parseByteCount,
  parseUploadChecksum,
  parseUploadMetadata,
  sendTusDiscovery,
  tusVersion,
} from '../../data/resumable/tus-protocol.ts';
import { answerPreflight } from '../../plugins/app-credentials.ts';
import { hasBody } from '../../plugins/body-deadline.ts';
import { single } from '../../plugins/header-values.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';

/**
 * POST /api/v1/uploads: tus creation (and creation-with-upload) for stock tus clients (Uppy's
 * Tus plugin, tus-js-client with `endpoint`), behind the usual barriers. `Upload-Metadata`
 * carries what POST /api/v1/file takes (filePath, permissionScope, contentType,
 * checksumSha256); the record is created exactly as that endpoint creates it, and `Location`
 * is the upload's signed URL (the same as its resumableUrl).
 */
export const createUpload: RouteRegistrar = (app, services) => {
  app.register(async (scope) => {
    // creation-with-upload: the first chunk streams to the store, unparsed.
    scope.addContentTypeParser(offsetContentType, (_request, _payload, done) => done(null));
    // tus discovery (an OPTIONS without Access-Control-Request-Method) or a browser's preflight.
    scope.options('/uploads', { schema: { hide: true } }, async (request, reply) => {
      sendTusDiscovery(reply, await discoveredMaxSizeBytes(services, request));
      if (request.headers['access-control-request-method'] !== undefined)
        return answerPreflight(request, reply, services.repositories.projects);
      return reply.code(204).send();
    });
    scope.post(
      '/uploads',
      {
        config: { streamsBody: true },
        schema: {
          summary: 'Create a resumable upload (tus 1.0 creation)',
          description:
            'Headers: Tus-Resumable: 1.0.0, Upload-Length, Upload-Metadata (filePath required; permissionScope, contentType, checksumSha256, and verify: `true` verifies the upload when its last byte lands, as does the project setting resumableAutoVerify). Answers 201 with Location (the signed upload URL), Coffer-File-Id and Upload-Expires; a body sent as application/offset+octet-stream is the first chunk (Upload-Offset answers how much was kept). The request (or PATCH) that completes an auto-verified upload runs the verify of POST /api/v1/file/{fileId}/verify: it answers with Coffer-File-Verified: true and the verified file record as JSON (a PATCH then answers 200, not 204), or with the error of that verify (422 FILE_INFECTED or FILE_REJECTED, 503 SCANNER_UNAVAILABLE or ADMISSION_UNAVAILABLE, 409 …); a HEAD of the complete upload answers the same (headers only).',
          tags: ['uploads'],
          response: { 201: Type.Null(), ...errorResponses(400, 401, 403, 409, 412, 413, 415, 422, 503) },
        },
      },
      async (request, reply) => {
        reply.header('tus-resumable', tusVersion);
        assertTusResumable(request);
        const asked = toResumableRequest(request);
        const { file, resumable } = await requestResumableUpload(services, request.principal, asked);
        reply.header('location', resumable.url).header('coffer-file-id', file.id);
        const link = toGatewayLink(pathAndQuery(resumable.url), { fileId: idOf(resumable.url) });
        let status: UploadStatus = await services.resumableUploads!.status(link);
        if (hasBody(request)) {
          assertOffsetBody(request);
          const checksum = parseUploadChecksum(request.headers['upload-checksum']);
          status = await abortOnIdle(request.raw, () =>
            services.resumableUploads!.append(link, {
              offset: 0,
              body: request.raw,
              ...(checksum && { checksum }),
            }),
          );
        }
        return answerUpload(request, reply, services, status, 201);
      },
    );
  });
};

/**
 * Tus-Max-Size: the project's limit when the OPTIONS names its app (issue 35, item 10), else
 * the server's. OPTIONS passes no barrier, so the app id is only a name here: an unknown one
 * gets the server's limit, like no app id at all (app ids are public, nothing is revealed).
 */
async function discoveredMaxSizeBytes(services: Services, request: FastifyRequest): Promise<number> {
  const appId = single(request.headers['sb-app-id']);
  const project = appId && (await services.identity.getProjectByApp(appId).catch(unlessUnknownApp));
  const projectMax = project ? project.settings.maxFileSizeBytes : null;
  return Math.min(services.config.maxFileSizeBytes, projectMax ?? Number.POSITIVE_INFINITY);
}

function unlessUnknownApp(error: unknown): undefined {
  if (isAppError(error) && error.code === 'INVALID_APP_CREDENTIALS') return undefined;
  throw error;
}

/** What the tus headers ask for, as POST /api/v1/file's fields. */
function toResumableRequest(request: FastifyRequest) {
  if (request.headers['upload-defer-length'] !== undefined)
    throw validationFailed('Upload-Defer-Length is not supported: send Upload-Length');
  if (request.headers['upload-concat'] !== undefined)
    throw validationFailed('Upload-Concat is not supported: use one upload (or S3 multipart parts)');
  const length = parseByteCount(request.headers['upload-length'], 'Upload-Length');
  const metadata = parseUploadMetadata(request.headers['upload-metadata']);
  const filePath = metadata.get('filePath');
  if (!filePath) throw validationFailed('Upload-Metadata must carry filePath');
  const scope = metadata.get('permissionScope') ?? 'user';
  if (scope !== 'user' && scope !== '*') throw validationFailed('permissionScope must be user or *');
  const contentType = metadata.get('contentType');
  const checksumSha256 = metadata.get('checksumSha256');
  const verify = parseVerify(metadata.get('verify'));
  const declared = toUploadContract({
    contentLength: length,
    ...(contentType !== undefined && { contentType }),
    ...(checksumSha256 !== undefined && { checksumSha256 }),
  });
  return { filePath, permissionScope: scope as PermissionScope, declared, verify };
}

/** `verify` (issue 43): `true` verifies the upload on its last byte; absent or `false`: a verify call does. */
function parseVerify(value: string | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw validationFailed('Upload-Metadata verify must be true or false');
}

function pathAndQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function idOf(url: string): string {
  return new URL(url).pathname.split('/').pop() ?? '';
}
