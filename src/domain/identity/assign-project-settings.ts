import { validationFailed } from '../../errors/errors.ts';
import { accountLinkOrigin } from './account-link-url.ts';
import {
  defaultProjectSettings,
  type ProjectSettings,
  projectSettingDefinitions,
  projectSettingNames,
} from './project-settings.ts';
import { tableSettings } from './table-settings.ts';

/**
 * assignSettings, plus the checks that need the project: a new accountLinkUrl must be on an
 * origin the project allows (mail links must not lead anywhere else).
 */
export function assignProjectSettings(
  project: { settings: ProjectSettings; allowedOrigins: readonly string[]; adminRole: string },
  assignments: readonly string[],
): ProjectSettings {
  // `adminRoles=` restores the project's own admin role (as readStoredSettings defaults it),
  // not the generic ["admin"]: a project made with another admin role keeps its admins.
  const defaults = { ...defaultProjectSettings, adminRoles: [project.adminRole] };
  const next = assignSettings(project.settings, assignments, defaults);
  const url = next.accountLinkUrl;
  if (url !== null && url !== project.settings.accountLinkUrl) {
    const origin = accountLinkOrigin(url);
    if (!project.allowedOrigins.includes(origin))
      throw validationFailed(
        `accountLinkUrl: ${origin} is not an origin this project allows; allow it first (coffer project origin add)`,
      );
  }
  return next;
}

/** Applies `name=value` assignments (all checked before any applies); `name=` resets one to its default. */
export function assignSettings(
  current: ProjectSettings,
  assignments: readonly string[],
  defaults: ProjectSettings = defaultProjectSettings,
): ProjectSettings {
  if (assignments.length === 0) throw validationFailed('name settings to change as name=value');
  const next: Record<string, unknown> = { ...current };
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    const name = (equals < 0 ? assignment : assignment.slice(0, equals)) as keyof ProjectSettings;
    const table = equals >= 0 ? tableSettings.find((setting) => setting.matches(name)) : undefined;
    if (table) {
      next[table.key] = table.assign(next[table.key] as never, name, assignment.slice(equals + 1));
      continue;
    }
    if (!Object.hasOwn(projectSettingDefinitions, name)) {
      throw validationFailed(
        `unknown setting ${JSON.stringify(name)}; known: ${projectSettingNames.join(', ')}`,
      );
    }
    if (equals < 0) throw validationFailed(`${name}: write ${name}=value`);
    const text = assignment.slice(equals + 1).trim();
    next[name] = text === '' ? defaults[name] : projectSettingDefinitions[name].parse(text, name);
  }
  return next as ProjectSettings;
}
