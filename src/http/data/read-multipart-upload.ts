import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyConfig, type BusboyInstance } from '@fastify/busboy';
import type { BlobInfo } from '../../domain/ports.ts';
import { validationFailed } from '../../errors/errors.ts';

export type UploadPart = { stream: Readable; contentType: string | undefined };

/** The spec's upload form names its file part `data` (spec 4.2). */
const filePartName = 'data';

export function isMultipart(contentType: string | undefined): boolean {
  return contentType !== undefined && /^multipart\/form-data\s*;/i.test(contentType);
}

/**
 * Streams the `data` part of a multipart form into `store`, discarding every other part, and
 * answers what the store answers. Only that part's bytes are kept, never the form envelope.
 */
export function readMultipartUpload(
  raw: IncomingMessage,
  store: (part: UploadPart) => Promise<BlobInfo>,
): Promise<BlobInfo> {
  return new Promise((resolve, reject) => {
    let stored: Promise<BlobInfo> | undefined;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      raw.unpipe(busboy);
      reject(error);
    };
    let busboy: BusboyInstance;
    try {
      busboy = Busboy({
        headers: raw.headers as BusboyConfig['headers'],
        // A `data` part is the file even when the client sent no filename with it.
        isPartAFile: (fieldName, _contentType, fileName) =>
          fieldName === filePartName || fileName !== undefined,
        limits: { fields: 100, fieldSize: 64 * 1024, files: 20, parts: 120, headerPairs: 100 },
      });
    } catch (error) {
      reject(validationFailed(`malformed multipart form: ${(error as Error).message}`));
      return;
    }
    busboy.on('file', (fieldName, stream, _fileName, _encoding, mimeType) => {
      if (fieldName !== filePartName || stored) {
        stream.resume(); // not ours: read past it
        return;
      }
      stored = store({ stream, contentType: mimeType || undefined });
      stored.catch(fail);
    });
    busboy.on('error', (error) =>
      fail(validationFailed(`malformed multipart form: ${(error as Error).message}`)),
    );
    busboy.on('finish', () => {
      if (!stored)
        return fail(validationFailed(`the multipart form has no file part named "${filePartName}"`));
      stored.then((info) => {
        settled = true;
        resolve(info);
      }, fail);
    });
    raw.once('close', () => {
      if (!raw.complete) fail(validationFailed('the upload was interrupted'));
    });
    raw.pipe(busboy);
  });
}
