import type { BlobStore } from '../blobs/blob-store.ts';
import { isActiveContentType } from '../files/active-content.ts';
import type { UploadContract } from '../files/file-record.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { LinkClaims, LinkOperation, LinkSigner } from './link-signer.ts';

/** Gateway path of a file's bytes; the signed query string is the credential. */
export const blobPathPrefix = '/blob/v1/files/';
/** Gateway path of a file's renditions (`<fileId>/<canonical spec>`); the signed query string is the credential. */
export const renditionPathPrefix = '/blob/v1/renditions/';
/** Gateway path of a new version's upload (issue 38); the signed query string is the credential. */
export const versionUploadPathPrefix = '/blob/v1/versions/';
/** Gateway path of an archive (issue 40): one ZIP of many files; the signed query string is the credential. */
export const archivePathPrefix = '/blob/v1/archives/';
/** Gateway path of pending bytes an admission hook reads (issue 42); the signed query string is the credential. */
export const admissionPathPrefix = '/blob/v1/admissions/';
/** Gateway path of a resumable upload (tus 1.0); the signed query string is the credential. */
export const resumablePathPrefix = '/blob/v1/uploads/';

/** Gateway paths of Uppy's `@uppy/aws-s3` requests that go through Coffer (issue 43); signed query strings. */
export const multipartPathPrefixes = {
  'multipart-start': '/blob/v1/multipart-starts/',
  'multipart-complete': '/blob/v1/multipart-completions/',
} as const;

export type IssuedLink = { url: string; expiresAt: number };

/** The project's choice of how download links are served (docs/security.md, "Revoking links"). */
export type DownloadPolicy = Pick<ProjectSettings, 'downloads' | 'presignedDownloadMaxSeconds'>;

/**
 * The query string of a gateway link, without its `?`. security: this is the one spelling
 * the gateway accepts (see toGatewayLink), so a link cannot be rewritten into another string
 * that means the same (a leading zero, a duplicated or extra parameter, another order).
 */
export function toGatewayQuery(link: {
  expiresAt: number;
  generation?: number;
  version?: string;
  keyId: string;
  signature: string;
}): string {
  const generation = link.generation === undefined ? '' : `&gen=${link.generation}`;
  const version = link.version === undefined ? '' : `&ver=${link.version}`;
  return `exp=${link.expiresAt}${generation}${version}&kid=${link.keyId}&sig=${link.signature}`;
}

/**
 * Builds absolute signed links (the original SDKs need absolute URLs). Download links point at
 * our gateway, which checks the file's links generation on every request; a project may choose
 * links that a store signs itself (S3 presigned), which skip Coffer but outlive a revocation.
 */
export class LinkIssuer {
  /** The signer of the moment: keys rotate (domain/keys/signing-key-ring.ts). */
  readonly #signer: { current(): Promise<LinkSigner> };
  readonly #blobs: BlobStore;
  readonly #baseUrl: () => string;
  readonly #directUploads: boolean;

  constructor(options: {
    signer: { current(): Promise<LinkSigner> };
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
    if (this.#directUploads && this.#blobs.presignUpload)
      return this.#presignUpload(this.#blobs.presignUpload.bind(this.#blobs), file, expiresAt, nowSeconds);
    return { url: await this.#gatewayUrl('upload', file.id, expiresAt), expiresAt };
  }

  /** Direct-upload mode: a URL the store signs for a PUT of the declared bytes to `storageKey`. */
  async #presignUpload(
    presign: NonNullable<BlobStore['presignUpload']>,
    file: { storageKey: string; contentType?: string; declared?: UploadContract },
    expiresAt: number,
    nowSeconds: number,
  ): Promise<IssuedLink> {
    const expiresInSeconds = Math.max(1, expiresAt - nowSeconds);
    const contentType = file.contentType ?? 'application/octet-stream';
    const { sizeBytes, checksumSha256 } = file.declared ?? {};
    const url = await presign(file.storageKey, {
      expiresInSeconds,
      contentType,
      ...(typeof sizeBytes === 'number' && { contentLength: sizeBytes }),
      ...(typeof checksumSha256 === 'string' && { checksumSha256 }),
    });
    return { url, expiresAt };
  }

  /**
   * A new version's upload link (issue 38): to the store itself in direct-upload mode (the
   * version's own key), else to the gateway's version path, signed for that upload alone.
   */
  async issueVersionUpload(
    upload: { id: string; storageKey: string; contentType?: string; declared?: UploadContract },
    expiresAt: number,
    nowSeconds: number,
  ): Promise<IssuedLink> {
    if (this.#directUploads && this.#blobs.presignUpload)
      return this.#presignUpload(this.#blobs.presignUpload.bind(this.#blobs), upload, expiresAt, nowSeconds);
    const url = await this.#gatewayUrl(
      'upload-version',
      upload.id,
      expiresAt,
      undefined,
      versionUploadPathPrefix,
    );
    return { url, expiresAt };
  }

  async issueDownload(
    file: {
      id: string;
      storageKey: string;
      blobVersion: string;
      fileName: string;
      contentType: string;
      /** Signed into gateway links: revoking moves it on (docs/security.md, "Revoking links"). */
      linksGeneration: number;
      /** The version the link is for (issue 38): it keeps serving those bytes once another is current. */
      versionId: string;
    },
    link: { expiresAt: number; nowSeconds: number; policy: DownloadPolicy },
  ): Promise<IssuedLink> {
    const { expiresAt, nowSeconds, policy } = link;
    // security: a store cannot send the sandbox policy with the bytes it serves, so active
    // content (HTML, SVG, XML, scripts) always goes through the gateway, which does.
    if (
      policy.downloads === 'presigned' &&
      this.#blobs.presignDownload &&
      !isActiveContentType(file.contentType)
    ) {
      // security: the store knows nothing of revocations, so a presigned link works until it
      // expires; the project's cap bounds that window, and the answer says the capped expiry.
      const expiresInSeconds = Math.min(expiresAt - nowSeconds, policy.presignedDownloadMaxSeconds);
      const url = await this.#blobs.presignDownload(file.storageKey, file.blobVersion, {
        expiresInSeconds,
        fileName: file.fileName,
        contentType: file.contentType,
      });
      return { url, expiresAt: nowSeconds + expiresInSeconds };
    }
    const url = await this.#gatewayUrl(
      'download',
      file.id,
      expiresAt,
      file.linksGeneration,
      blobPathPrefix,
      file.versionId,
    );
    return { url, expiresAt };
  }

  /**
   * A resumable upload's URL (issue 20): signed like an upload link, with the file's links
   * generation, so revoking the file's links stops the upload too. `verify`: the upload is
   * verified when its last byte lands (signed as operation `resume-verify`, same URL shape).
   */
  async issueResumable(
    uploadId: string,
    expiresAt: number,
    generation: number,
    verify = false,
  ): Promise<IssuedLink> {
    const operation = verify ? 'resume-verify' : 'resume';
    const url = await this.#gatewayUrl(operation, uploadId, expiresAt, generation, resumablePathPrefix);
    return { url, expiresAt };
  }

  /**
   * A link to a rendition (issue 21): always through the gateway, which renders on first use
   * and serves the stored rendition after. The canonical spec is signed into it, so the link
   * cannot be edited into another size, and the file's links generation, so revoking the file's
   * links revokes its renditions'.
   */
  async issueRendition(
    file: { id: string; linksGeneration: number },
    spec: string,
    expiresAt: number,
  ): Promise<IssuedLink> {
    const generation = file.linksGeneration;
    const { keyId, signature } = (await this.#signer.current()).sign({
      operation: 'render',
      fileId: file.id,
      expiresAt,
      generation,
      rendition: spec,
    });
    const query = toGatewayQuery({ expiresAt, generation, keyId, signature });
    return { url: `${this.#baseUrl()}${renditionPathPrefix}${file.id}/${spec}?${query}`, expiresAt };
  }

  /**
   * A link to an archive (issue 40): always through the gateway, which makes the ZIP. No links
   * generation is signed: the gateway checks every file's generation against the one the
   * archive recorded, so revoking any file's links stops the archive (ARCHIVE_STALE).
   */
  async issueArchive(archiveId: string, expiresAt: number): Promise<IssuedLink> {
    return {
      url: await this.#gatewayUrl('archive', archiveId, expiresAt, undefined, archivePathPrefix),
      expiresAt,
    };
  }

  /**
   * The admission hook's `url` (issue 42): the pending bytes of `versionId`, signed over the file
   * id, the version id and the expiry; the gateway serves them only while that upload is being
   * admitted (domain/admission/pending-bytes.ts).
   */
  issueAdmission(fileId: string, versionId: string, expiresAt: number): Promise<string> {
    return this.#gatewayUrl('admit', fileId, expiresAt, 0, admissionPathPrefix, versionId);
  }

  /**
   * A link Uppy's `@uppy/aws-s3` POSTs to instead of S3 (issue 43), signed with the file's links
   * generation, so revoking the file's links stops the upload as it stops a tus one.
   */
  issueMultipart(
    operation: keyof typeof multipartPathPrefixes,
    file: { id: string; linksGeneration: number },
    expiresAt: number,
  ): Promise<string> {
    const prefix = multipartPathPrefixes[operation];
    return this.#gatewayUrl(operation, file.id, expiresAt, file.linksGeneration, prefix);
  }

  /** Checks a gateway link; throws INVALID_SIGNATURE or LINK_EXPIRED. */
  async assertGatewayLink(
    claims: LinkClaims,
    query: { kid?: string; sig?: string },
    nowSeconds: number,
  ): Promise<void> {
    const signer = await this.#signer.current();
    signer.assertValid(claims, { keyId: query.kid ?? '', signature: query.sig ?? '' }, nowSeconds);
  }

  async #gatewayUrl(
    operation: LinkOperation,
    fileId: string,
    expiresAt: number,
    generation?: number,
    pathPrefix = blobPathPrefix,
    version?: string,
  ): Promise<string> {
    const { keyId, signature } = (await this.#signer.current()).sign({
      operation,
      fileId,
      expiresAt,
      generation,
      ...(version !== undefined && { version }),
    });
    const query = toGatewayQuery({ expiresAt, generation, version, keyId, signature });
    return `${this.#baseUrl()}${pathPrefix}${fileId}?${query}`;
  }
}
