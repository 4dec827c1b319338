import { createReadStream } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type S3rver from '@20minutes/s3rver';
import { isValidSigV4 } from './sigv4-verifier.ts';

type Fixes = { directory: string; secretAccessKey: string };

/**
 * Where s3rver parts from S3 in ways Coffer's tests meet, fixed in front of it (a test aid, not a
 * model of S3's authorisation):
 * - its SigV4 check is wrong for some queries and paths (see isValidSigV4), so it runs with
 *   allowMismatchedSignatures and this checks every signed request correctly instead;
 * - it lacks AbortMultipartUpload (DELETE ?uploadId), ListMultipartUploads (GET ?uploads) and
 *   ListParts (GET <key>?uploadId), added over its own upload directories (one per upload id,
 *   holding `key` and the parts, each beside its `<n>.md5`);
 * - it reads `Range: bytes=0-0` as the whole object (`end || Infinity`); S3 sends one byte;
 * - on a full disk it answers 500 and keeps a partial object; MinIO answers 507
 *   XMinioStorageFull and keeps nothing, so that is what this does (disk-full tests);
 * - a PutObject whose connection is cut before its last byte leaves what had arrived as the
 *   object; S3 keeps nothing of it, so neither does this.
 */
export function s3rverFixes({ directory, secretAccessKey }: Fixes): S3rver.Middleware {
  return async (ctx, next) => {
    if (isValidSigV4(ctx.req, secretAccessKey) === false) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body = '<Error><Code>SignatureDoesNotMatch</Code><Message>Signature mismatch</Message></Error>';
      return;
    }
    const [bucket = '', ...key] = ctx.path.split('/').filter(Boolean);
    const uploadsDir = join(directory, bucket, '._S3rver_uploads');
    const uploadId = ctx.query['uploadId'];
    if (ctx.method === 'DELETE' && key.length > 0 && typeof uploadId === 'string') {
      await rm(join(uploadsDir, uploadId.replace(/[^\w-]/g, '')), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === 'GET' && key.length > 0 && typeof uploadId === 'string') {
      const parts = await listParts(join(uploadsDir, uploadId.replace(/[^\w-]/g, '')));
      ctx.type = 'application/xml';
      ctx.status = parts ? 200 : 404;
      ctx.body = parts
        ? toListPartsXml({ bucket, key: key.join('/'), uploadId, parts })
        : '<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist</Message></Error>';
      return;
    }
    if (ctx.method === 'GET' && key.length === 0 && 'uploads' in ctx.query) {
      ctx.type = 'application/xml';
      ctx.body = toListMultipartUploadsXml(bucket, await listUploads(uploadsDir));
      return;
    }
    try {
      await next();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const isObjectPut = ctx.method === 'PUT' && key.length > 0 && uploadId === undefined;
      const removePartial = () =>
        removeObjectFiles(join(directory, bucket, ...key.slice(0, -1)), key.at(-1) ?? '');
      if (isObjectPut && !ctx.req.complete) {
        await removePartial();
        throw error;
      }
      if (code !== 'ENOSPC' && code !== 'EDQUOT') throw error;
      if (isObjectPut) await removePartial();
      ctx.status = 507;
      ctx.type = 'application/xml';
      ctx.body =
        '<Error><Code>XMinioStorageFull</Code><Message>Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.</Message></Error>';
      return;
    }
    // It stores a cut-off body as if it had ended: S3 keeps nothing of it.
    if (ctx.method === 'PUT' && key.length > 0 && uploadId === undefined && !ctx.req.complete)
      await removeObjectFiles(join(directory, bucket, ...key.slice(0, -1)), key.at(-1) ?? '');
    if (ctx.method === 'GET' && ctx.get('range') === 'bytes=0-0' && ctx.status === 206) {
      const size = ctx.response.get('Content-Range').split('/')[1] ?? '';
      (ctx.body as Readable).destroy();
      const objectPath = join(directory, bucket, ...key.slice(0, -1), `${key.at(-1)}._S3rver_object`);
      ctx.body = createReadStream(objectPath, { start: 0, end: 0 });
      ctx.set('Content-Range', `bytes 0-0/${size}`);
      ctx.length = 1;
    }
  };
}

async function removeObjectFiles(dir: string, name: string): Promise<void> {
  for (const suffix of ['object', 'object.md5', 'metadata.json']) {
    await rm(join(dir, `${name}._S3rver_${suffix}`), { force: true });
  }
}

type Upload = { key: string; uploadId: string; initiated: Date };

async function listUploads(uploadsDir: string): Promise<Upload[]> {
  const uploadIds = await readdir(uploadsDir).catch(() => [] as string[]);
  return Promise.all(
    uploadIds.map(async (uploadId) => ({
      uploadId,
      key: await readFile(join(uploadsDir, uploadId, 'key'), 'utf8'),
      initiated: (await stat(join(uploadsDir, uploadId, 'key'))).mtime,
    })),
  );
}

const toXmlText = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

function toListMultipartUploadsXml(bucket: string, uploads: Upload[]): string {
  const items = uploads.map(
    (upload) =>
      `<Upload><Key>${toXmlText(upload.key)}</Key><UploadId>${toXmlText(upload.uploadId)}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${toXmlText(bucket)}</Bucket><IsTruncated>false</IsTruncated>${items.join('')}</ListMultipartUploadsResult>`;
}

type UploadedPart = { partNumber: number; etag: string; sizeBytes: number; lastModified: Date };

/** The parts of one upload, by number; undefined when the upload is gone (completed, aborted). */
async function listParts(uploadDir: string): Promise<UploadedPart[] | undefined> {
  const names = await readdir(uploadDir).catch(() => undefined);
  if (!names) return undefined;
  const numbers = names.filter((name) => /^\d+$/.test(name)).map(Number);
  const parts = await Promise.all(
    numbers.map(async (partNumber) => {
      const info = await stat(join(uploadDir, String(partNumber)));
      const md5 = await readFile(join(uploadDir, `${partNumber}.md5`), 'utf8');
      return { partNumber, etag: `"${md5}"`, sizeBytes: info.size, lastModified: info.mtime };
    }),
  );
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

function toListPartsXml(upload: {
  bucket: string;
  key: string;
  uploadId: string;
  parts: UploadedPart[];
}): string {
  const items = upload.parts.map(
    (part) =>
      `<Part><PartNumber>${part.partNumber}</PartNumber><LastModified>${part.lastModified.toISOString()}</LastModified><ETag>${toXmlText(part.etag)}</ETag><Size>${part.sizeBytes}</Size></Part>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${toXmlText(upload.bucket)}</Bucket><Key>${toXmlText(upload.key)}</Key><UploadId>${toXmlText(upload.uploadId)}</UploadId><IsTruncated>false</IsTruncated>${items.join('')}</ListPartsResult>`;
}
