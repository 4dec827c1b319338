import { isAppError } from '../../errors/app-error.ts';
import { fileNotFound, fileNotVerified } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { Clock } from '../clock.ts';
import { newId } from '../ids.ts';
import type { BlobStore, FileRecord, FileRepository, PermissionScope, ReplacedUpload } from '../ports.ts';
import { type FileService, getAccessibleFile, toStorageKey } from './file-service.ts';
import type { UploadLimits } from './upload-limits.ts';
import { validateFilePath } from './validate-file-path.ts';

export type FileOrganizerOptions = {
  files: FileRepository;
  blobs: BlobStore;
  clock: Clock;
  /** Single deletes: a bulk delete is one of them per id. */
  fileService: FileService;
  /** A copy is a file of its creator's: the project's limits and quotas apply to it. */
  limits: UploadLimits;
};

/** What became of one id of a bulk delete: 204, or the error it met. */
export type DeleteOutcome = { fileId: string; statusCode: number; code?: string };

/** Bulk deletes take at most this many ids per request. */
export const maxBulkDeleteIds = 100;

/**
 * Copy, move and bulk delete (issue 10, item 9), each checked against the access rules like
 * the single-file calls. Copies never copy bytes: blob versions are immutable, so a copy names
 * its source's version (docs/decisions.md, "Copies share bytes").
 */
export class FileOrganizer {
  readonly #o: FileOrganizerOptions;

  constructor(options: FileOrganizerOptions) {
    this.#o = options;
  }

  /**
   * POST /api/v1/file/:id/copy: a new verified file of the caller at `filePath` with the same
   * bytes, its own id and an ACL of the caller alone. Needs read access; the source must be verified.
   */
  async copy(
    principal: Principal,
    fileId: string,
    request: { filePath: string; permissionScope?: PermissionScope },
  ): Promise<FileRecord> {
    const source = await getAccessibleFile(this.#o.files, principal, fileId, 'read');
    if (!source.verified) throw fileNotVerified();
    const filePath = validateFilePath(request.filePath);
    return this.#addCopy(principal, source, { filePath, permissionScope: request.permissionScope ?? 'user' });
  }

  /**
   * The one place a copy adds a file for its creator: what it adds is one file of
   * `source.content.sizeBytes` bytes, owned by `principal.userId`.
   */
  async #addCopy(
    principal: Principal,
    source: FileRecord,
    target: { filePath: string; permissionScope: PermissionScope },
  ): Promise<FileRecord> {
    // Its full size counts against its owner, though the bytes are shared (docs/decisions.md).
    await this.#o.limits.assertRoomForFile(
      { projectId: principal.projectId, userId: principal.userId },
      {
        sizeBytes: source.content?.sizeBytes ?? 0,
        ...(source.content?.contentType ? { contentType: source.content.contentType } : {}),
      },
    );
    const created = await this.#o.files.createCopy(
      {
        id: newId(),
        projectId: principal.projectId,
        creatorId: principal.userId,
        filePath: target.filePath,
        permissionScope: target.permissionScope,
        sourceId: source.id,
      },
      this.#o.clock.now(),
    );
    // The source was deleted or replaced between the access check and the copy.
    if (!created) throw fileNotFound();
    await this.#discardReplaced(principal.projectId, created.replaced);
    return created.file;
  }

  /**
   * POST /api/v1/file/:id/move: the same file (id, ACL, bytes, links) at another filePath of its
   * creator; creator or admin. Moving to the path it has changes nothing.
   */
  async move(principal: Principal, fileId: string, request: { filePath: string }): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    const filePath = validateFilePath(request.filePath);
    const moved = await this.#o.files.move(file.id, filePath, this.#o.clock.now());
    if (!moved) throw fileNotFound();
    await this.#discardReplaced(file.projectId, moved.replaced);
    return moved.file;
  }

  /**
   * POST /api/v1/file/delete {fileIds}: each id deleted on its own, as DELETE /api/v1/file/:id
   * would; answers one outcome per id, in order. Errors other than the API's own (a store down)
   * fail the whole request, after the ids before it were deleted.
   */
  async deleteMany(principal: Principal, fileIds: readonly string[]): Promise<DeleteOutcome[]> {
    const outcomes: DeleteOutcome[] = [];
    for (const fileId of fileIds) {
      try {
        await this.#o.fileService.delete(principal, fileId);
        outcomes.push({ fileId, statusCode: 204 });
      } catch (error) {
        if (!isAppError(error) || error.statusCode >= 500) throw error;
        outcomes.push({ fileId, statusCode: error.statusCode, code: error.code });
      }
    }
    return outcomes;
  }

  /** An abandoned upload that made room at the target path: its bytes go after the commit. */
  async #discardReplaced(projectId: string, replaced: ReplacedUpload | undefined): Promise<void> {
    if (!replaced?.pendingBlobVersion) return;
    const key = toStorageKey({ projectId, id: replaced.id });
    await this.#o.blobs.delete(key, replaced.pendingBlobVersion).catch(() => {});
  }
}
