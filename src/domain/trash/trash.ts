import { accessDenied, fileNotFound, fileOnHold, validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { toActor, toFileEvent } from '../events/file-events.ts';
import type { FileRecord } from '../files/file-record.ts';
import { discardBlob } from '../files/file-stores.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { UploadLimits } from '../files/upload-limits.ts';
import { validateFilePath } from '../files/validate-file-path.ts';
import { isServiceKeyPrincipal } from '../identity/service-keys.ts';
import { fromTrashCursor, toTrashCursor } from './trash-cursor.ts';
import type { TrashPurging, TrashPurgingOptions } from './trash-purging.ts';
import type { TrashedFile, TrashOwner, TrashScope } from './trash-repository.ts';

export const defaultTrashPageSize = 20;
export const maxTrashPageSize = 100;

export type TrashOptions = Pick<TrashPurgingOptions, 'trash' | 'blobs' | 'clock'> & {
  purging: TrashPurging;
  /** Restoring adds a file back to its owner: the quotas apply, as to a copy. */
  limits: Pick<UploadLimits, 'quotasOf'>;
};

/** A trash item: the file as it was, and when the retention sweep purges it (the current setting). */
export type TrashItem = TrashedFile & { purgeAt: Date };

export type TrashPageRequest = { owner?: string; pageSize: number; cursor?: string };
export type TrashPage = { items: TrashItem[]; nextCursor?: string };

/**
 * The trash of issue 38, item 3: a user's own deleted files, which they list, restore and purge
 * themselves (an admin or a service key for any owner). A trashed file of another owner answers
 * FILE_NOT_FOUND to anyone else: it left their view as it left listings.
 */
export class Trash {
  readonly #o: TrashOptions;

  constructor(options: TrashOptions) {
    this.#o = options;
  }

  /** GET /api/v1/trash: one owner's trashed files, newest first, a keyset page. */
  async list(principal: Principal, request: TrashPageRequest): Promise<TrashPage> {
    return this.#page(toTrashOwner(principal, request.owner), request);
  }

  /**
   * The project's whole trash, every owner's (or `owner`'s only), newest first: what the
   * console shows its operators. security: a project admin's only, as another owner's trash is.
   */
  async listProject(principal: Principal, request: TrashPageRequest): Promise<TrashPage> {
    if (!principal.isAdmin) throw accessDenied("Only a project admin may list every owner's trash");
    return this.#page({ projectId: principal.projectId, ownerId: request.owner }, request);
  }

  async #page(scope: TrashScope, request: TrashPageRequest): Promise<TrashPage> {
    const after = request.cursor === undefined ? undefined : fromTrashCursor(request.cursor);
    const page = await this.#o.trash.list(scope, { after, limit: request.pageSize + 1 });
    const items = await Promise.all(
      page.slice(0, request.pageSize).map(async (item) => ({
        ...item,
        purgeAt: await this.#o.purging.purgeAtOf(scope.projectId, item.trashedAt),
      })),
    );
    const last = items.at(-1);
    if (page.length <= request.pageSize || last === undefined) return { items };
    return { items, nextCursor: toTrashCursor({ trashedAt: last.trashedAt.getTime(), id: last.file.id }) };
  }

  /**
   * POST /api/v1/trash/:id/restore: back at its path or `filePath` (owner or admin), with its
   * id, ACL, folder shares, customData and versions; links issued before stay dead.
   */
  async restore(principal: Principal, id: string, request: { filePath?: string }): Promise<FileRecord> {
    const { file } = await this.#getTrashed(principal, id);
    const filePath = request.filePath === undefined ? file.filePath : validateFilePath(request.filePath);
    const now = this.#o.clock.now();
    const restored = await this.#o.trash.restore({
      projectId: file.projectId,
      id,
      filePath,
      now,
      quotas: await this.#o.limits.quotasOf(file.projectId),
      eventOf: (record) =>
        toFileEvent('file.restored', principal, record, now, {
          sizeBytes: record.content?.sizeBytes ?? null,
          ...(filePath === file.filePath ? {} : { previousFilePath: file.filePath }),
        }),
    });
    if (restored === undefined) throw fileNotFound();
    // An abandoned upload that held the path: its bytes go after the commit, as create()'s.
    const pending = restored.replaced?.pendingBlobVersion;
    if (pending) {
      const key = toStorageKey({ projectId: file.projectId, id: restored.replaced!.id });
      await discardBlob(this.#o.blobs, key, pending);
    }
    return restored.file;
  }

  /** DELETE /api/v1/trash/:id: purged at once, its bytes with it (owner or admin). */
  async purge(principal: Principal, id: string): Promise<void> {
    const { file } = await this.#getTrashed(principal, id);
    const purged = await this.#o.purging.purge(file.projectId, id, toActor(principal));
    if (purged === 'held') throw fileOnHold(file.filePath);
    if (purged === undefined) throw fileNotFound();
  }

  /** POST /api/v1/trash/empty: the owner's whole trash, in bounded batches; answers how many went. */
  async empty(principal: Principal, request: { owner?: string }): Promise<number> {
    return this.#o.purging.empty(toTrashOwner(principal, request.owner), toActor(principal));
  }

  async #getTrashed(principal: Principal, id: string): Promise<TrashedFile> {
    const trashed = await this.#o.trash.find(principal.projectId, id);
    if (trashed === undefined) throw fileNotFound();
    if (trashed.file.creatorId !== principal.userId && !principal.isAdmin) throw fileNotFound();
    return trashed;
  }
}

/**
 * Whose trash: the caller's own by default; another owner's needs the project's admin role (a
 * service key has it, and owns no files: it names the owner). security: a non-admin naming
 * another owner gets FILE_NOT_FOUND, as for any trashed file not theirs.
 */
function toTrashOwner(principal: Principal, owner: string | undefined): TrashOwner {
  if (owner === undefined) {
    if (isServiceKeyPrincipal(principal)) throw validationFailed('owner is required with a service key');
    return { projectId: principal.projectId, ownerId: principal.userId };
  }
  if (owner !== principal.userId && !principal.isAdmin) throw fileNotFound();
  return { projectId: principal.projectId, ownerId: owner };
}
