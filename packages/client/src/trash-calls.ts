import type { Call, FileRecord, TrashPage } from './api-shapes.ts';

/** How the client sends a call (its #call: headers, token refresh, errors). */
type Send = <T>(call: Call) => Promise<T>;

/** Whose trash: the caller's unless `owner` names another user (the project's admin role). */
export type TrashOwnerOption = { owner?: string };

export type TrashListOptions = TrashOwnerOption & { pageSize?: number; cursor?: string };

/*
 * The trash (issue 38, item 3), each the API operation of the same name, kept here so that
 * index.ts stays the client's outline.
 */

const trashPath = (fileId: string) => `/api/v1/trash/${encodeURIComponent(fileId)}`;

export const listTrash = (send: Send, options: TrashListOptions) =>
  send<TrashPage>({ method: 'GET', path: '/api/v1/trash', query: options, auth: true });

/** No `filePath` (JSON leaves it out: `{}`): back at the path it was deleted from. */
export const restoreTrashed = (send: Send, fileId: string, to: { filePath?: string }) =>
  send<FileRecord>({
    method: 'POST',
    path: `${trashPath(fileId)}/restore`,
    body: { filePath: to.filePath },
    auth: true,
  });

export const purgeTrashed = async (send: Send, fileId: string) => {
  await send({ method: 'DELETE', path: trashPath(fileId), auth: true });
};

export const emptyTrash = async (send: Send, options: TrashOwnerOption) =>
  (
    await send<{ purged: number }>({
      method: 'POST',
      path: '/api/v1/trash/empty',
      query: { owner: options.owner },
      auth: true,
    })
  ).purged;
