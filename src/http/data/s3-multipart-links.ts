import type { FastifyReply } from 'fastify';
import type { ClaimedPart } from '../../domain/resumable/direct-multipart-parts.ts';
import { AppError } from '../../errors/app-error.ts';
import { bodyTooLarge, validationFailed } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { GatewayParams, toGatewayLink } from './gateway-link.ts';

/** Every part named: up to 10,000 of about 100 bytes each. */
const maxBodyBytes = 2 * 1024 * 1024;
const maxParts = 10_000;

/**
 * The two requests of Uppy's `@uppy/aws-s3` that come to Coffer instead of S3 (issue 43; links
 * the sign route hands out, domain/resumable/direct-multipart-signer.ts), answered in S3's XML,
 * which is what the plugin parses:
 * - POST /blob/v1/multipart-starts/:fileId: the upload Coffer started, as S3's
 *   `<InitiateMultipartUploadResult>`;
 * - POST /blob/v1/multipart-completions/:fileId with S3's `<CompleteMultipartUpload>`: Coffer
 *   completes the upload and verifies the file, then answers `<CompleteMultipartUploadResult>`
 *   and `Coffer-File-Verified: true`, or S3's `<Error>` (with Coffer's code and status) so the
 *   plugin reports `upload-error`.
 */
export const s3MultipartLinks: RouteRegistrar = (app, services) => {
  app.post(
    '/multipart-starts/:fileId',
    { schema: { hide: true, params: GatewayParams } },
    async (request, reply) => {
      const signer = services.directMultipartSigner;
      if (!signer) throw validationFailed("This server's blob store is not S3");
      return answerXml(reply, async () => {
        const { key, uploadId } = await signer.started(toGatewayLink(request.url, request.params));
        return `<InitiateMultipartUploadResult><Key>${escapeXml(key)}</Key><UploadId>${escapeXml(uploadId)}</UploadId></InitiateMultipartUploadResult>`;
      });
    },
  );

  app.post(
    '/multipart-completions/:fileId',
    { schema: { hide: true, params: GatewayParams } },
    async (request, reply) => {
      const signer = services.directMultipartSigner;
      if (!signer) throw validationFailed("This server's blob store is not S3");
      return answerXml(reply, async () => {
        const link = toGatewayLink(request.url, request.params);
        const parts = toClaimedParts(await readText(request.raw, maxBodyBytes));
        const client = { ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 256) ?? null };
        const { file, etag } = await signer.complete(link, parts, client);
        reply.header('coffer-file-verified', String(file.verified));
        const location = `${services.publicUrl.value}/api/v1/file/${file.id}`;
        return `<CompleteMultipartUploadResult><Location>${escapeXml(location)}</Location><Key>${escapeXml(file.id)}</Key><ETag>${escapeXml(etag)}</ETag></CompleteMultipartUploadResult>`;
      });
    },
  );
};

/** S3's answer shape either way: its XML, and an `<Error>` carrying Coffer's code and status. */
async function answerXml(reply: FastifyReply, answer: () => Promise<string>): Promise<FastifyReply> {
  reply.header('content-type', 'application/xml');
  try {
    return reply.send(`<?xml version="1.0" encoding="UTF-8"?>\n${await answer()}`);
  } catch (error) {
    if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return reply
      .code(error.statusCode)
      .header('x-amz-error-code', error.code)
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${escapeXml(error.message)}</Message></Error>`,
      );
  }
}

/**
 * The parts of S3's `<CompleteMultipartUpload>` body, the one shape the plugin (and any S3
 * client) sends: `<Part><PartNumber>n</PartNumber><ETag>…</ETag></Part>` repeated. Anything
 * else is VALIDATION_FAILED.
 */
export function toClaimedParts(xml: string): ClaimedPart[] {
  const body = /<CompleteMultipartUpload(?:\s[^>]*)?>([\s\S]*)<\/CompleteMultipartUpload>/.exec(xml)?.[1];
  if (body === undefined) throw validationFailed("The body must be S3's <CompleteMultipartUpload> XML");
  const parts: ClaimedPart[] = [];
  const part = /<Part>\s*<PartNumber>(\d{1,5})<\/PartNumber>\s*<ETag>([^<]{1,256})<\/ETag>\s*<\/Part>/g;
  for (const match of body.matchAll(part)) {
    const partNumber = Number(match[1]);
    if (partNumber < 1 || partNumber > maxParts)
      throw validationFailed(`partNumber ${partNumber} is out of 1..10000`);
    parts.push({ partNumber, etag: unescapeXml(match[2]!) });
  }
  if (parts.length === 0 || body.replace(part, '').trim() !== '')
    throw validationFailed(
      '<CompleteMultipartUpload> holds only <Part><PartNumber>…</PartNumber><ETag>…</ETag></Part>',
    );
  return parts;
}

async function readText(body: AsyncIterable<Buffer>, limitBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > limitBytes) throw bodyTooLarge(limitBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
