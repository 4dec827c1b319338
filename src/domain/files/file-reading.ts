import {
  fileNotFound,
  fileNotVerified,
  internal,
  linkRevoked,
  validationFailed,
  versionNotFound,
} from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { assertNotQuarantined } from '../admission/assert-not-quarantined.ts';
import type { ByteRange } from '../blobs/blob-store.ts';
import { toUnixSeconds } from '../clock.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { IssuedLink, LinkIssuer } from '../links/link-issuer.ts';
import { toVersionRecord } from '../versions/version-record.ts';
import type { VersionRepository } from '../versions/version-repository.ts';
import type { FileContentInfo, FileRecord } from './file-record.ts';
import type { FileStores } from './file-stores.ts';
import { getAccessibleFile } from './get-accessible-file.ts';
import { type GatewayLink, getLinkedFile } from './get-linked-file.ts';
import { fromSearchCursor, toSearchCursor } from './search-cursor.ts';
import type { SearchRequest } from './search-request.ts';
import { toStorageKey } from './storage-key.ts';
import { toFileName } from './validate-file-path.ts';

/** A verified file with everything a download needs. */
export type DownloadableFile = FileRecord & { content: FileContentInfo; etag: string; blobVersion: string };

export type FileReadingOptions = FileStores & {
  links: LinkIssuer;
  /** The project's settings (cached: a change is seen within the access epoch's re-read). */
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
  /** A file's earlier versions (issue 38): records and links of them. */
  versions: Pick<VersionRepository, 'find'>;
};

/** Reading files (spec 4.5): records and download links, listings, and the bytes behind a link. */
export class FileReading {
  readonly #o: FileReadingOptions;

  constructor(options: FileReadingOptions) {
    this.#o = options;
  }

  /**
   * Spec 4.5: the record and a download link valid for `expiresInSeconds`. With `versionId`
   * (issue 38), the record of that version and a link to its bytes. A link names the version it
   * was issued for: it keeps serving those bytes once another version is current.
   */
  async getWithDownloadLink(
    principal: Principal,
    fileId: string,
    expiresInSeconds: number,
    versionId?: string,
  ): Promise<{ file: FileRecord; download: IssuedLink }> {
    // The hot read (issue 44): a record checked within 250 ms, unless this node wrote since.
    const current = await getAccessibleFile(this.#o.files, principal, fileId, 'read', 'recent');
    assertNotQuarantined(current);
    const file =
      versionId === undefined || versionId === current.contentVersion.id
        ? current
        : await this.#versionOf(current, versionId);
    if (!file.verified || !file.content || !file.blobVersion) throw fileNotVerified();
    const nowSeconds = toUnixSeconds(this.#o.clock.now());
    const policy = await this.#o.settingsOf(file.projectId);
    const download = await this.#o.links.issueDownload(
      {
        id: file.id,
        storageKey: toStorageKey(file),
        blobVersion: file.blobVersion,
        fileName: toFileName(file.filePath),
        contentType: file.content.contentType,
        linksGeneration: file.linksGeneration,
        versionId: file.contentVersion.id,
      },
      { expiresAt: nowSeconds + expiresInSeconds, nowSeconds, policy },
    );
    return { file, download };
  }

  /** The record of one of the file's earlier versions, or VERSION_NOT_FOUND. */
  async #versionOf(file: FileRecord, versionId: string): Promise<FileRecord> {
    const version = await this.#o.versions.find(file.id, versionId);
    if (!version) throw versionNotFound();
    return toVersionRecord(file, version);
  }

  /** GET /api/v1/file: the files the caller may list, newest first, one page. */
  async list(
    principal: Principal,
    page: { pageSize: number; pageNumber: number; filePathPrefix?: string },
  ): Promise<{ files: FileRecord[]; total: number }> {
    return this.#o.files.list({
      projectId: principal.projectId,
      readerId: principal.userId,
      readerRole: principal.role,
      isAdmin: principal.isAdmin,
      filePathPrefix: page.filePathPrefix,
      limit: page.pageSize,
      offset: (page.pageNumber - 1) * page.pageSize,
    });
  }

  /**
   * GET /api/v1/file with search parameters (issue 40): one page of the files the caller may
   * list that pass every filter, in the asked order, from the cursor; `nextCursor` when more may
   * follow (also after a page the examination budget cut short, even an empty one).
   */
  async search(
    principal: Principal,
    request: SearchRequest & { pageSize: number; pageNumber: number; filePathPrefix?: string },
  ): Promise<{ files: FileRecord[]; nextCursor?: string }> {
    if (request.cursor !== undefined && request.pageNumber > 1)
      throw validationFailed('cursor and pageNumber > 1 do not combine: a cursor is where the page starts');
    const after =
      request.cursor === undefined
        ? undefined
        : fromSearchCursor(request.cursor, request.sort, request.order);
    const page = await this.#o.files.search({
      projectId: principal.projectId,
      readerId: principal.userId,
      readerRole: principal.role,
      isAdmin: principal.isAdmin,
      filters: { ...request.filters, filePathPrefix: request.filePathPrefix },
      sort: request.sort,
      order: request.order,
      scope: request.scope,
      limit: request.pageSize,
      offset: (request.pageNumber - 1) * request.pageSize,
      after,
    });
    return {
      files: page.files,
      nextCursor:
        page.next === undefined ? undefined : toSearchCursor(request.sort, request.order, page.next),
    };
  }

  /** Data plane, download link: the verified file it names (checked before any byte is read). */
  async getDownloadable(link: GatewayLink): Promise<DownloadableFile> {
    const file = await getLinkedFile(this.#o, link, 'download');
    // Before the generation (which the quarantine moved on): a link of a quarantined file says why.
    assertNotQuarantined(file);
    // The generation came with the record (no other read): a revocation or an unshare moved it
    // on, in the database, so every process and node refuses the older links at once.
    if ((link.generation ?? 0) !== file.linksGeneration) throw linkRevoked();
    if (!file.verified || !file.content || !file.etag || !file.blobVersion) throw fileNotVerified();
    // A link issued for an earlier version (issue 38) serves that version's bytes while it is kept.
    if (link.version !== undefined && link.version !== file.contentVersion.id)
      return (await this.#versionOf(file, link.version)) as DownloadableFile;
    return file as DownloadableFile;
  }

  /** Opens the bytes (or an inclusive range of them) of a file from getDownloadable. */
  async openContent(file: DownloadableFile, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const blob = await this.#o.blobs.get(toStorageKey(file), file.blobVersion, options);
    if (!blob) throw fileNotFound();
    // The version is immutable, so this only fails if the store lost or damaged the bytes: then
    // answer an error rather than a body of another length than the one declared.
    if (blob.info.sizeBytes !== file.content.sizeBytes) {
      if (!Buffer.isBuffer(blob.body)) blob.body.destroy();
      throw internal(new Error(`stored size of ${toStorageKey(file)} differs from its record`));
    }
    return blob;
  }
}
