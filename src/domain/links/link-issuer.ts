import { isActiveContentType } from '../files/active-content.ts';
import type { BlobStore, UploadContract } from '../ports.ts';
import type { LinkClaims, LinkOperation, LinkSigner } from './link-signer.ts';

/** Gateway path of a file's bytes; the signed query string is the credential. */
export const blobPathPrefix = '/blob/v1/files/';

export type IssuedLink = { url: string; expiresAt: number };

/**
 * The query string of a gateway link, without its `?`. security: this is the one spelling
 * the gateway accepts (see toGatewayLink), so a link cannot be rewritten into another string
 * that means the same (a leading zero, a duplicated or extra parameter, another order).
 */
export function toGatewayQuery(link: { expiresAt: number; keyId: string; signature: string }): string {
  return `exp=${link.expiresAt}&kid=${link.keyId}&sig=${link.signature}`;
}

/**
 * Builds absolute signed links (the original SDKs need absolute URLs). Stores that can sign
 * their own URLs (S3) serve downloads directly; otherwise the links point at our gateway.
 */
export class LinkIssuer {
  readonly #signer: LinkSigner;
  readonly #blobs: BlobStore;
  readonly #baseUrl: () => string;
  readonly #directUploads: boolean;

  constructor(options: {
    signer: LinkSigner;
    blobs: BlobStore;
    baseUrl: () => string;
    directUploads?: boolean;
  }) {
    this.#signer = options.signer;
    this.#blobs = options.blobs;
    this.#baseUrl = options.baseUrl;
    this.#directUploads = options.directUploads ?? false;
  }

  async issueUpload(
    file: { id: string; storageKey: string; contentType?: string; declared?: UploadContract },
    expiresAt: number,
    nowSeconds: number,
  ): Promise<IssuedLink> {
    if (this.#directUploads && this.#blobs.presignUpload) {
      const expiresInSeconds = Math.max(1, expiresAt - nowSeconds);
      const contentType = file.contentType ?? 'application/octet-stream';
      const { sizeBytes, checksumSha256 } = file.declared ?? {};
      const url = await this.#blobs.presignUpload(file.storageKey, {
        expiresInSeconds,
        contentType,
        ...(typeof sizeBytes === 'number' && { contentLength: sizeBytes }),
        ...(typeof checksumSha256 === 'string' && { checksumSha256 }),
      });
      return { url, expiresAt };
    }
    return { url: this.#gatewayUrl('upload', file.id, expiresAt), expiresAt };
  }

  async issueDownload(
    file: { id: string; storageKey: string; blobVersion: string; fileName: string; contentType: string },
    expiresAt: number,
    nowSeconds: number,
  ): Promise<IssuedLink> {
    // security: a store cannot send the sandbox policy with the bytes it serves, so active
    // content (HTML, SVG, XML, scripts) always goes through the gateway, which does.
    if (this.#blobs.presignDownload && !isActiveContentType(file.contentType)) {
      const url = await this.#blobs.presignDownload(file.storageKey, file.blobVersion, {
        expiresInSeconds: expiresAt - nowSeconds,
        fileName: file.fileName,
        contentType: file.contentType,
      });
      return { url, expiresAt };
    }
    return { url: this.#gatewayUrl('download', file.id, expiresAt), expiresAt };
  }

  /** Checks a gateway link; throws INVALID_SIGNATURE or LINK_EXPIRED. */
  assertGatewayLink(claims: LinkClaims, query: { kid?: string; sig?: string }, nowSeconds: number): void {
    this.#signer.assertValid(claims, { keyId: query.kid ?? '', signature: query.sig ?? '' }, nowSeconds);
  }

  #gatewayUrl(operation: LinkOperation, fileId: string, expiresAt: number): string {
    const { keyId, signature } = this.#signer.sign({ operation, fileId, expiresAt });
    return `${this.#baseUrl()}${blobPathPrefix}${fileId}?${toGatewayQuery({ expiresAt, keyId, signature })}`;
  }
}
