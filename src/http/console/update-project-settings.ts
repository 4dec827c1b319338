import { Type } from '@sinclair/typebox';
import { assignProjectSettings } from '../../domain/identity/assign-project-settings.ts';
import { notFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject, toProjectView } from './project-view.ts';

/** A setting's value: text as `coffer project set` takes it, a number, a flag, a list, or null. */
const settingValue = Type.Union([
  Type.String({ maxLength: 4096 }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 }),
]);

/**
 * PATCH /console/api/projects/:projectId/settings {name: value | null}: the same settings and
 * checks as `coffer project set` (null restores a default; all checked before any is written).
 */
export const updateSettingsRoute: RouteRegistrar = (app, services) => {
  app.patch(
    '/projects/:projectId/settings',
    {
      schema: {
        hide: true,
        params: projectParams,
        body: Type.Record(Type.String({ maxLength: 64 }), settingValue, { maxProperties: 32 }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const assignments = Object.entries(request.body).map(
        ([name, value]) => `${name}=${toAssignedText(value)}`,
      );
      const settings = assignProjectSettings(project, assignments);
      const updated = await services.repositories.projects.updateSettings(project.id, settings);
      if (!updated) throw notFound('project');
      return { project: toProjectView(updated) };
    },
  );
};

/** A JSON setting value as the text `coffer project set` parses (`name=` restores the default). */
function toAssignedText(value: string | number | boolean | null | string[]): string {
  if (value === null) return '';
  return Array.isArray(value) ? value.join(',') : String(value);
}
