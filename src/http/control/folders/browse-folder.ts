import type { BrowsedFolder } from '../../../domain/folders/folder-browsing.ts';
import { maxFolderPageSize } from '../../../domain/folders/folder-browsing.ts';
import { toFolderCursor, toFolderName } from '../../../domain/folders/folder-path.ts';
import type { FolderSummary } from '../../../domain/folders/folder-repository.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { sendJsonWithFiles } from '../../wire/json-with-files.ts';
import { toFileView } from '../../wire/to-wire.ts';
import { BrowseFolderQuery, FolderPageSchema } from './folder-schemas.ts';

/**
 * GET /api/v1/folders?path&owner&pageSize&cursor (issue 36, item 1): a folder of one owner,
 * its direct subfolders with their subtrees' counts, and a page of its direct files.
 */
export const browseFolder: RouteRegistrar = (app, services) => {
  app.get(
    '/folders',
    {
      schema: {
        summary: 'Browse a folder',
        tags: ['files'],
        querystring: BrowseFolderQuery,
        response: { 200: FolderPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { path, owner, cursor } = request.query;
      const page = await services.folderBrowsing.browse(request.principal, {
        ...{ path, owner, cursor },
        pageSize: toPageSize(request.query.pageSize),
      });
      // The files' JSON is kept with their kept records (json-with-files.ts).
      const rest = { ...toFolderPageView({ ...page, files: [] }), files: [] };
      return sendJsonWithFiles(reply, rest, page.files);
    },
  );
};

function toPageSize(text: string | undefined): number {
  if (text === undefined) return 100;
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > maxFolderPageSize) {
    throw validationFailed(`pageSize must be a whole number from 1 to ${maxFolderPageSize}`);
  }
  return Number(text);
}

/** A browsed folder as the API answers it (the console's folder route answers it too). */
export function toFolderPageView(page: BrowsedFolder) {
  return {
    owner: page.ownerId,
    path: page.path,
    fileCount: page.fileCount,
    totalBytes: page.totalBytes,
    folders: page.subfolders.map(toFolderEntry),
    foldersTruncated: page.subfoldersTruncated,
    files: page.files.map(toFileView),
    nextCursor: page.nextCursorAfter === undefined ? null : toFolderCursor(page.nextCursorAfter),
  };
}

function toFolderEntry(folder: FolderSummary) {
  return {
    name: toFolderName(folder.path),
    path: folder.path,
    fileCount: folder.fileCount,
    totalBytes: folder.totalBytes,
    updatedAt: folder.updatedAt.toISOString(),
  };
}
