import { contentMismatch, validationFailed } from '../../errors/errors.ts';
import type { UploadContract } from './file-record.ts';

/** What the upload request may declare, as the wire carries it. */
export type DeclaredUpload = { contentLength?: number; contentType?: string; checksumSha256?: string };

/** `type/subtype` with optional parameters: what a Content-Type header may carry. */
const contentTypeSyntax = /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/;
/** base64 of 32 bytes: 43 characters and one `=` (S3's x-amz-checksum-sha256 spelling). */
const sha256Base64 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

export const noContract: UploadContract = Object.freeze({
  sizeBytes: null,
  contentType: null,
  checksumSha256: null,
});

/** Checks what an upload request declares; VALIDATION_FAILED names the field at fault. */
export function toUploadContract(declared: DeclaredUpload): UploadContract {
  const { contentLength, contentType, checksumSha256 } = declared;
  if (contentLength !== undefined && !(Number.isSafeInteger(contentLength) && contentLength >= 0))
    throw validationFailed('contentLength must be a whole number of bytes');
  const type = contentType?.trim();
  if (type !== undefined && !(type.length <= 255 && contentTypeSyntax.test(type)))
    throw validationFailed('contentType must be a media type such as image/png');
  if (checksumSha256 !== undefined && !sha256Base64.test(checksumSha256))
    throw validationFailed('checksumSha256 must be the base64 of a SHA-256 digest (44 characters)');
  return {
    sizeBytes: contentLength ?? null,
    contentType: type ?? null,
    checksumSha256: checksumSha256 ?? null,
  };
}

/** `type/subtype`, lower-cased, without parameters. */
export function toEssence(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * The type a PUT sent against the declared one: a PUT that names no type takes the declared
 * one; one that names another (parameters aside) is CONTENT_MISMATCH.
 */
export function assertDeclaredType(declared: string | null, sent: string | undefined): void {
  if (declared === null || sent === undefined || sent.trim() === '') return;
  if (toEssence(sent) !== toEssence(declared))
    throw contentMismatch(`type: the upload is ${toEssence(sent)}, declared ${toEssence(declared)}`);
}

/** Clients must send the ETag with its quotes (spec 4.2); a bare one is accepted too. */
export function toQuotedEtag(etag: string): string {
  const trimmed = etag.trim();
  return trimmed.startsWith('"') ? trimmed : `"${trimmed}"`;
}
