import { defaultTrashPageSize, maxTrashPageSize } from '../../../domain/trash/trash.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { TrashPageSchema, TrashQuerySchema, toTrashPageView } from './trash-schemas.ts';

/** GET /api/v1/trash?pageSize&cursor&owner (issue 38, item 3): the caller's trashed files, newest first. */
export const listTrash: RouteRegistrar = (app, services) => {
  app.get(
    '/trash',
    {
      schema: {
        summary: 'List the trash',
        tags: ['trash'],
        querystring: TrashQuerySchema,
        response: { 200: TrashPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { cursor, owner } = request.query;
      const pageSize = toPageSize(request.query.pageSize);
      return toTrashPageView(await services.trash.list(request.principal, { owner, pageSize, cursor }));
    },
  );
};

function toPageSize(text: string | undefined): number {
  if (text === undefined) return defaultTrashPageSize;
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > maxTrashPageSize) {
    throw validationFailed(`pageSize must be a whole number from 1 to ${maxTrashPageSize}`);
  }
  return Number(text);
}
