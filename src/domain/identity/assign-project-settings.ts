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
  assertMagicLinkPage(project.settings, next);
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

/**
 * Sign-in by link needs the app's own page (docs/decisions.md): Coffer's /account/magic-link
 * cannot start a session for the app, so `magicLink=true` with no accountLinkUrl would mail links
 * that sign nobody in. Checked only when a change touches either setting, so a project stored
 * that way before still takes its other settings.
 */
function assertMagicLinkPage(before: ProjectSettings, next: ProjectSettings): void {
  const touched = before.magicLink !== next.magicLink || before.accountLinkUrl !== next.accountLinkUrl;
  if (touched && next.magicLink && next.accountLinkUrl === null)
    throw validationFailed(
      "magicLink=true needs accountLinkUrl: Coffer's own /account/magic-link page cannot sign anyone in to the app; set accountLinkUrl to the app's sign-in page (on an allowed origin) first or in the same change",
    );
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
