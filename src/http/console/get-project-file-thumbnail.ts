import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { findProject } from './project-view.ts';

/**
 * GET /console/api/projects/:projectId/files/:fileId/thumbnail: a redirect to a short-lived
 * link to the file's 160×160 WebP rendition, for the file browser's <img>; the image's own
 * errors (415 not an image, 422 too large) answer here as JSON.
 */
export const getProjectFileThumbnail: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files/:fileId/thumbnail',
    { schema: { hide: true, params: fileParams } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const principal = operatorPrincipal(project, request.operator!.id);
      const { download } = await services.renditions.getThumbnailLink(principal, request.params.fileId, 300);
      return reply.code(302).header('location', download.url).header('cache-control', 'no-store').send();
    },
  );
};
