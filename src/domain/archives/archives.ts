import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type PlacedZipEntry, ZipLayoutBuilder } from '../../archives/zip-layout.ts';
import { openZipRange } from '../../archives/zip-stream.ts';
import { archiveStale, archiveTooLarge, notFound } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { ByteRange } from '../blobs/blob-store.ts';
import { toUnixSeconds } from '../clock.ts';
import type { FileStores } from '../files/file-stores.ts';
import type { GatewayLink } from '../files/get-linked-file.ts';
import { toStorageKey } from '../files/storage-key.ts';
import { toFolderName, toFolderPath } from '../folders/folder-path.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import { newId } from '../ids.ts';
import type { LinkIssuer } from '../links/link-issuer.ts';
import {
  type ArchiveFile,
  type ArchiveLimits,
  type ArchiveRequest,
  folderFiles,
  selectFiles,
  toArchiveFolderOwner,
} from './archive-files.ts';
import { UniqueNames } from './archive-names.ts';
import type { ArchiveEntry, ArchiveRecord, ArchiveRepository } from './archive-repository.ts';
import { toZipSource } from './archive-source.ts';

export type ArchivesOptions = FileStores & {
  archives: ArchiveRepository;
  links: LinkIssuer;
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
};

/** What POST /api/v1/archives answers. */
export type CreatedArchive = {
  url: string;
  expiresAt: number;
  fileCount: number;
  totalBytes: number;
  archiveBytes: number;
};

/** An archive the gateway may serve: its record and where its bytes come from. */
export type ServableArchive = {
  archive: ArchiveRecord;
  /** The bytes of an inclusive range, made as they are read; aborting `signal` stops the store reads. */
  open(range: ByteRange, signal: AbortSignal): Readable;
};

/**
 * Archives (issue 40): one ZIP of many files behind one signed link. Access is decided for
 * every file when the archive is made; the layout (every entry's name, size, CRC if known and
 * offset) is fixed and stored then, so every request answers the same bytes and a Range
 * resumes. The download checks that the files are still exactly those before any byte.
 */
export class Archives {
  readonly #o: ArchivesOptions;

  constructor(options: ArchivesOptions) {
    this.#o = options;
  }

  async create(
    principal: Principal,
    request: ArchiveRequest,
    expiresInSeconds: number,
  ): Promise<CreatedArchive> {
    const settings = await this.#o.settingsOf(principal.projectId);
    const limits: ArchiveLimits = { maxFiles: settings.maxArchiveFiles, maxBytes: settings.maxArchiveBytes };
    const { chosen, folderPath } = await this.#choose(principal, request, limits);
    const now = this.#o.clock.now();
    const nowSeconds = toUnixSeconds(now);
    const builder = new ZipLayoutBuilder();
    const layoutHash = createHash('sha256');
    let totalBytes = 0;
    const entries: ArchiveEntry[] = chosen.map(({ file, name }) => {
      const size = file.content!.sizeBytes;
      totalBytes += size;
      if (totalBytes > limits.maxBytes)
        throw archiveTooLarge(
          `more than ${limits.maxBytes} bytes of files; the project allows ${limits.maxBytes} (maxArchiveBytes)`,
        );
      const placed: PlacedZipEntry = builder.place({
        name,
        size,
        crc32: file.contentCrc32,
        modifiedAt: file.contentVersion.createdAt,
      });
      layoutHash.update(
        `${file.id}\0${file.blobVersion}\0${name}\0${size}\0${placed.crc32 ?? ''}\0${placed.modifiedAt.getTime()}\n`,
      );
      return {
        ...placed,
        fileId: file.id,
        blobVersion: file.blobVersion!,
        linksGeneration: file.linksGeneration,
        storageKey: toStorageKey(file),
      };
    });
    const layout = builder.finish();
    const id = newId();
    const expiresAt = nowSeconds + expiresInSeconds;
    await this.#o.archives.create(
      {
        id,
        projectId: principal.projectId,
        creatorId: principal.userId,
        createdAt: now,
        expiresAt: new Date(expiresAt * 1000),
        fileCount: entries.length,
        totalBytes,
        archiveBytes: layout.totalBytes,
        centralOffset: layout.offset,
        centralSize: layout.size,
        // The layout decides every byte: the same hash is the same archive.
        etag: `"${layoutHash.update(String(layout.totalBytes)).digest('base64url').slice(0, 22)}"`,
        fileName: folderPath ? `${toFolderName(folderPath)}.zip` : 'files.zip',
      },
      entries,
      now,
    );
    const link = await this.#o.links.issueArchive(id, expiresAt);
    return { ...link, fileCount: entries.length, totalBytes, archiveBytes: layout.totalBytes };
  }

  /** The files and their names: a selection's are its files' paths, a folder's relative to it. */
  async #choose(
    principal: Principal,
    request: ArchiveRequest,
    limits: ArchiveLimits,
  ): Promise<{ chosen: ArchiveFile[]; folderPath?: string }> {
    const names = new UniqueNames();
    if ('fileIds' in request) {
      const files = await selectFiles(this.#o.files, principal, request.fileIds, limits);
      return { chosen: files.map((file) => ({ file, name: names.take(file.filePath) })) };
    }
    const path = toFolderPath(request.folder.path);
    const ownerId = toArchiveFolderOwner(principal, request.folder.owner);
    const files = await folderFiles(this.#o.files, principal, { ownerId, path }, limits);
    return {
      chosen: files.map((file) => ({ file, name: names.take(file.filePath.slice(path.length)) })),
      ...(path !== '' && { folderPath: path }),
    };
  }

  /**
   * Data plane: the archive a link names, once its signature and expiry hold and every file is
   * still the one it was made of (ARCHIVE_STALE otherwise), checked before any byte is sent.
   */
  async getServable(link: GatewayLink): Promise<ServableArchive> {
    // The signature is checked before anything is looked up: a forged link learns nothing.
    await this.#o.links.assertGatewayLink(
      // security: any generation or version a link carries is signed in, so one added to an
      // archive link (which is issued with neither) breaks its signature: one spelling per link.
      {
        operation: 'archive',
        fileId: link.fileId,
        expiresAt: link.expiresAt,
        generation: link.generation,
        ...(link.version !== undefined && { version: link.version }),
      },
      link,
      toUnixSeconds(this.#o.clock.now()),
    );
    const archive = await this.#o.archives.findById(link.fileId);
    if (!archive) throw notFound('archive');
    if ((await this.#o.archives.countStaleEntries(archive.id)) > 0) throw archiveStale();
    const source = toZipSource({ ...this.#o, archive });
    return { archive, open: (range, signal) => openZipRange(source, range, signal) };
  }
}
