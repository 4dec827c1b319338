import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyConfig, type BusboyInstance } from '@fastify/busboy';
import type { StoredBlob } from '../../domain/blobs/blob-store.ts';
import { isAppError } from '../../errors/app-error.ts';
import { validationFailed } from '../../errors/errors.ts';

export type UploadPart = { stream: Readable; contentType: string | undefined };

/** The spec's upload form names its file part `data` (spec 4.2). */
const filePartName = 'data';

/**
 * A form upload, with or without parameters. security: a `multipart/form-data` without its
 * boundary (a client that set the header by hand) is a form all the same: stored raw, its
 * framing would become the file (issue 25, item 5); the parser refuses it instead.
 */
export function isMultipart(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
}

const malformed = (error: unknown) =>
  validationFailed(`malformed multipart form: ${(error as Error).message}`);

/**
 * Streams the `data` part of a multipart form into `store`, discarding every other part, and
 * answers what the store answers. Only that part's bytes are kept, never the form envelope.
 * A form that breaks off or is malformed rejects with VALIDATION_FAILED once the store has
 * cleaned up after itself, so the answer never races the removal of partial bytes.
 */
export function readMultipartUpload(
  raw: IncomingMessage,
  store: (part: UploadPart) => Promise<StoredBlob>,
): Promise<StoredBlob> {
  return new Promise((resolve, reject) => {
    let stored: Promise<StoredBlob> | undefined;
    let filePart: Readable | undefined;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      raw.unpipe(busboy);
      // Whatever happens, the store must see the end of its stream to clean up; then answer.
      if (filePart && !filePart.readableEnded) filePart.destroy(new Error('the form was abandoned'));
      const done = () => outcome();
      stored ? stored.then(done, done) : done();
    };
    const fail = (error: unknown) => settle(() => reject(error));
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
      // RFC 7578 §4.1: the boundary parameter is what delimits the parts; without it there is no form.
      const noBoundary = /boundary not found/i.test((error as Error).message);
      reject(
        noBoundary ? validationFailed('multipart/form-data needs its boundary parameter') : malformed(error),
      );
      return;
    }
    busboy.on('file', (fieldName, stream, _fileName, _encoding, mimeType) => {
      // security: a part stream errors when the form breaks off; unheard, that error would
      // take the whole process down. The form's own 'error' below decides the answer.
      let partError: unknown;
      stream.on('error', (error) => {
        partError = error;
      });
      if (fieldName !== filePartName || stored) {
        stream.resume(); // not ours: read past it
        return;
      }
      filePart = stream;
      stored = store({ stream, contentType: mimeType || undefined });
      // A part that broke off is the client's fault, whatever the store made of it; a store
      // that failed on its own (a bug, a device error it does not name) is not.
      stored.catch((error: unknown) => {
        if (isAppError(error)) fail(error);
        else fail(partError === undefined ? error : malformed(partError));
      });
    });
    busboy.on('error', (error) => fail(malformed(error)));
    busboy.on('finish', () => {
      if (!stored)
        return fail(validationFailed(`the multipart form has no file part named "${filePartName}"`));
      stored.then((info) => settle(() => resolve(info)), fail);
    });
    raw.once('close', () => {
      if (!raw.complete) fail(validationFailed('the upload was interrupted'));
    });
    raw.pipe(busboy);
  });
}
