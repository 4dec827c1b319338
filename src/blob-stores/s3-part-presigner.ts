import type { S3Area } from './s3-listings.ts';
import { type S3PartialUpload, toPartBytes } from './s3-partial-upload.ts';
import { S3Presigner } from './s3-presigner.ts';

/**
 * Presigned UploadPart URLs: a client PUTs each part of a resumable upload straight to S3
 * (issue 20's parallel uploads). Signed for the S3 client the store writes with, from its
 * resolved region, endpoint, addressing style and credentials (refreshed as it refreshes
 * them), so a URL names exactly the object and upload the store completes.
 */
export class S3PartPresigner {
  readonly #area: S3Area;
  #presigner: Promise<S3Presigner> | undefined;

  constructor(area: S3Area) {
    this.#area = area;
  }

  async presign(upload: S3PartialUpload, partNumber: number, expiresInSeconds: number): Promise<string> {
    const presigner = await this.#presignerOnce();
    return presigner.presign({
      method: 'PUT',
      operation: 'UploadPart',
      key: upload.versionKey,
      expiresInSeconds,
      // security: the upload and the part number are signed, so the URL writes this part of
      // this upload only; so is the part's exact length, so S3 refuses a body of another size
      // and every part but the last is full, as the layout complete() checks requires.
      query: { partNumber: String(partNumber), uploadId: upload.uploadId },
      headers: { 'content-length': String(toPartBytes(upload, partNumber)) },
    });
  }

  /** The upload's parts' listing or its abort (Uppy's `@uppy/aws-s3` sends them itself). */
  async presignOnUpload(
    upload: S3PartialUpload,
    operation: 'ListParts' | 'AbortMultipartUpload',
    expiresInSeconds: number,
  ): Promise<string> {
    const presigner = await this.#presignerOnce();
    return presigner.presign({
      method: operation === 'ListParts' ? 'GET' : 'DELETE',
      operation,
      key: upload.versionKey,
      expiresInSeconds,
      // security: the upload id is signed, so the URL lists or aborts this upload only.
      query: { uploadId: upload.uploadId },
    });
  }

  #presignerOnce(): Promise<S3Presigner> {
    this.#presigner ??= this.#build().catch((error: unknown) => {
      this.#presigner = undefined; // the next call tries again
      throw error;
    });
    return this.#presigner;
  }

  async #build(): Promise<S3Presigner> {
    const { client, bucket } = this.#area;
    const { config } = client;
    const endpoint = await config.endpoint?.();
    return new S3Presigner({
      bucket,
      region: await config.region(),
      ...(endpoint && {
        endpoint: `${endpoint.protocol}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ''}${endpoint.path}`,
      }),
      forcePathStyle: config.forcePathStyle ?? false,
      credentials: () => config.credentials(),
    });
  }
}
