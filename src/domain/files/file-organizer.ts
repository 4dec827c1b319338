import { isAppError } from '../../errors/app-error.ts';
import { fileNotFound, fileNotVerified, fileOnHold } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { assertNotQuarantined } from '../admission/assert-not-quarantined.ts';
import type { NewEvent } from '../events/event.ts';
import { toActor, toFileEvent } from '../events/file-events.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import { assertActsForUser } from '../identity/service-keys.ts';
import { newFileId } from '../ids.ts';
import type { TrashPurging } from '../trash/trash-purging.ts';
import type { TrashRepository } from '../trash/trash-repository.ts';
import { parseCustomData } from './custom-data.ts';
import type { FileRecord, PermissionScope } from './file-record.ts';
import type { ReplacedUpload } from './file-repository.ts';
import { discardBlob, type FileStores } from './file-stores.ts';
import { getAccessibleFile } from './get-accessible-file.ts';
import { toStorageKey } from './storage-key.ts';
import type { UploadLimits } from './upload-limits.ts';
import { validateFilePath } from './validate-file-path.ts';

export type FileOrganizerOptions = FileStores & {
  /** A copy is a file of its creator's: the project's limits and quotas apply to it. */
  limits: UploadLimits;
  /** Deletes of verified files go to the trash while the project keeps one (issue 38). */
  trash: {
    files: TrashRepository;
    purging: TrashPurging;
    settingsOf: (projectId: string) => Promise<ProjectSettings>;
  };
};

/** What became of one id of a bulk delete: 204, or the error it met. */
export type DeleteOutcome = { fileId: string; statusCode: number; code?: string };

/** Bulk deletes take at most this many ids per request. */
export const maxBulkDeleteIds = 100;

/**
 * Copy, move, delete and bulk delete (issue 10, item 9), and the app's own metadata, each
 * checked against the access rules like the other single-file calls. Copies never copy bytes: blob versions are immutable, so a copy names
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
    // The copy is the caller's own file: a service key owns none.
    assertActsForUser(principal);
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
    // security: a quarantined file's bytes go to no one (issue 42), through a copy neither.
    assertNotQuarantined(source);
    // Its full size counts against its owner, though the bytes are shared (docs/decisions.md).
    // This early check answers most refusals cheaply; the write re-checks the quotas it is
    // handed under its lock, so concurrent copies cannot all pass (issue 25, item 3).
    const quotas = await this.#o.limits.assertRoomForFile(
      { projectId: principal.projectId, userId: principal.userId },
      {
        sizeBytes: source.content?.sizeBytes ?? 0,
        ...(source.content?.contentType ? { contentType: source.content.contentType } : {}),
      },
    );
    const now = this.#o.clock.now();
    const copy = {
      id: newFileId(),
      projectId: principal.projectId,
      creatorId: principal.userId,
      filePath: target.filePath,
      permissionScope: target.permissionScope,
      sourceId: source.id,
    };
    const event = toFileEvent('file.copied', principal, copy, now, {
      sourceFileId: source.id,
      sourceFilePath: source.filePath,
      sizeBytes: source.content?.sizeBytes ?? null,
    });
    const created = await this.#o.files.createCopy(copy, now, quotas, event);
    // The source was deleted or replaced between the access check and the copy.
    if (!created) throw fileNotFound();
    await this.#discardReplaced(principal.projectId, created.replaced);
    return created.file;
  }

  /**
   * POST /api/v1/file/:id/move: the same file (id, ACL, bytes, links) at another filePath of its
   * creator; creator or admin. Moving to the path it has changes nothing. A held file moves
   * for no one (FILE_ON_HOLD; the write judges it again under the row's lock).
   */
  async move(principal: Principal, fileId: string, request: { filePath: string }): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    if (file.hold) throw fileOnHold(file.filePath);
    const filePath = validateFilePath(request.filePath);
    const now = this.#o.clock.now();
    const event = toFileEvent('file.updated', principal, { ...file, filePath }, now, {
      change: 'move',
      previousFilePath: file.filePath,
    });
    const moved = await this.#o.files.move(
      file.id,
      filePath,
      now,
      file.filePath === filePath ? undefined : event,
    );
    if (!moved) throw fileNotFound();
    await this.#discardReplaced(file.projectId, moved.replaced);
    return moved.file;
  }

  /**
   * DELETE /api/v1/file/:id: to the trash while the project keeps one (trashRetentionDays > 0) and
   * the file is verified; else the record goes first, then its bytes (a failure leaves an orphan
   * blob, never a record without bytes). `final`: never to the trash (a deleted account's files).
   * A held file is refused (FILE_ON_HOLD), re-checked by the committing statement.
   */
  async delete(principal: Principal, fileId: string, options: { final?: boolean } = {}): Promise<void> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    if (file.hold) throw fileOnHold();
    const now = this.#o.clock.now();
    const event = toFileEvent('file.deleted', principal, file, now, {
      sizeBytes: file.content?.sizeBytes ?? null,
    });
    const { trashRetentionDays } = await this.#o.trash.settingsOf(file.projectId);
    if (file.verified && !options.final && trashRetentionDays > 0)
      return this.#moveToTrash(principal, file, event, now);
    if (!(await this.#o.files.delete(file.id, event))) throw await this.#whyNotDeleted(file.id);
    for (const version of [file.blobVersion, file.pendingUpload?.blobVersion]) {
      if (!version) continue;
      // Copies share verified bytes (see #addCopy): the last record naming them removes
      // them. Asked after the delete committed, so a copy that committed first is seen.
      if (file.verified && (await this.#o.files.isBlobReferenced(file.blobFileId ?? file.id, version)))
        continue;
      await discardBlob(this.#o.blobs, toStorageKey(file), version);
    }
  }

  /** Trashes the file (file.trashed and file.deleted in its commit), then holds its owner's trash to the cap. */
  async #moveToTrash(principal: Principal, file: FileRecord, deleted: NewEvent, now: Date): Promise<void> {
    const trashed = toFileEvent('file.trashed', principal, file, now, {
      sizeBytes: file.content?.sizeBytes ?? null,
    });
    const outcome = await this.#o.trash.files.trash({
      fileId: file.id,
      trashedBy: toActor(principal).id ?? '',
      at: now,
      events: [trashed, deleted],
    });
    if (outcome === 'held') throw fileOnHold();
    if (outcome === 'missing') throw fileNotFound();
    await this.#o.trash.purging.enforceCap({ projectId: file.projectId, ownerId: file.creatorId });
  }

  /** A delete that deleted nothing: the file was put on hold meanwhile, or is gone. */
  async #whyNotDeleted(fileId: string) {
    return (await this.#o.files.findById(fileId))?.hold ? fileOnHold() : fileNotFound();
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
        await this.delete(principal, fileId);
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
    await discardBlob(
      this.#o.blobs,
      toStorageKey({ projectId, id: replaced.id }),
      replaced.pendingBlobVersion,
    );
  }

  /** PATCH /api/v1/file/:id {customData}: replaces the app's own metadata (creator or admin). */
  async updateCustomData(principal: Principal, fileId: string, customData: unknown): Promise<FileRecord> {
    // The ACL is a barrier: it answers before the body is judged (DESIGN §4).
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    const parsed = parseCustomData(customData);
    const now = this.#o.clock.now();
    const event = toFileEvent('file.updated', principal, file, now, { change: 'customData' });
    const updated = await this.#o.files.updateCustomData(file.id, parsed, now, event);
    if (!updated) throw fileNotFound();
    return updated;
  }
}
