import { defaultSharedPageSize, maxSharedPageSize } from '../../../domain/folders/shared-with-me.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { SharedPageSchema, SharedQuerySchema, toSharedPageView } from './shared-schemas.ts';

/**
 * GET /api/v1/shared?pageSize&cursor (issue 36, item 5): the files and folders other users
 * shared with the caller, by id or by role, newest share first.
 */
export const sharedWithMe: RouteRegistrar = (app, services) => {
  app.get(
    '/shared',
    {
      schema: {
        summary: 'Shared with me',
        tags: ['folders'],
        querystring: SharedQuerySchema,
        response: { 200: SharedPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { cursor } = request.query;
      const pageSize = toPageSize(request.query.pageSize);
      return toSharedPageView(await services.sharedWithMe.page(request.principal, { pageSize, cursor }));
    },
  );
};

function toPageSize(text: string | undefined): number {
  if (text === undefined) return defaultSharedPageSize;
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > maxSharedPageSize) {
    throw validationFailed(`pageSize must be a whole number from 1 to ${maxSharedPageSize}`);
  }
  return Number(text);
}
