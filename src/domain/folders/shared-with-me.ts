import { validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { isServiceKeyPrincipal } from '../identity/service-keys.ts';
import { fromSharedCursor, toSharedCursor, toSharedPosition } from './shared-cursor.ts';
import type { SharedItem, SharedWithMeRepository } from './shared-with-me-repository.ts';

/** Shares a page answers at most, and when none is asked for (as the file listing's). */
export const maxSharedPageSize = 100;
export const defaultSharedPageSize = 20;

export type SharedPage = {
  items: SharedItem[];
  /** The cursor of the next page; undefined on the last one. */
  nextCursor: string | undefined;
};

/**
 * "Shared with me" (issue 36, item 5): the files and folders other users shared with the
 * caller, by id or by role, newest share first, one page at a time.
 */
export class SharedWithMe {
  readonly #shares: SharedWithMeRepository;

  constructor(options: { shares: SharedWithMeRepository }) {
    this.#shares = options.shares;
  }

  async page(principal: Principal, request: { pageSize: number; cursor?: string }): Promise<SharedPage> {
    // A service key administers a project as no user: nothing is shared with it.
    if (isServiceKeyPrincipal(principal))
      throw validationFailed('a service key has no shares: it is no user');
    const after = request.cursor === undefined ? undefined : fromSharedCursor(request.cursor);
    const { items, hasMore } = await this.#shares.findShared({
      projectId: principal.projectId,
      grantee: { userId: principal.userId, role: principal.role },
      limit: request.pageSize,
      after,
    });
    const last = items.at(-1);
    return { items, nextCursor: hasMore && last ? toSharedCursor(toSharedPosition(last)) : undefined };
  }
}
