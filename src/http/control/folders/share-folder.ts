import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import {
  FolderShareBody,
  FolderSharesAnswer,
  toFolderSharesView,
  toShareTarget,
} from './folder-share-schemas.ts';

/**
 * POST /api/v1/folders/share and /folders/unshare {owner?, path, user | role | email} (issue
 * 36): the grantee reads every file under the folder, present and future, until unshared.
 * Both answer the shares reaching the folder.
 */
export const shareFolder: RouteRegistrar = (app, services) => {
  for (const action of ['share', 'unshare'] as const) {
    app.post(
      `/folders/${action}`,
      {
        schema: {
          summary: action === 'share' ? 'Share a folder' : 'Unshare a folder',
          tags: ['folders'],
          body: FolderShareBody,
          response: { 200: FolderSharesAnswer, ...errorResponses(400, 401, 403, 404, 413, 429) },
        },
      },
      async (request) => {
        const { owner, path } = request.body;
        const target = toShareTarget(request.body);
        const sharing = services.folderSharing;
        const folder =
          action === 'share'
            ? await sharing.share(request.principal, { owner, path, target })
            : await sharing.unshare(request.principal, { owner, path, target });
        return toFolderSharesView(folder.ownerId, folder.path, folder.shares);
      },
    );
  }
};
