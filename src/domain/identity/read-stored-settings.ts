import {
  defaultProjectSettings,
  type ProjectSettings,
  projectSettingDefinitions,
  projectSettingNames,
} from './project-settings.ts';

/**
 * The settings stored as JSON text: every known, well-formed value over the defaults.
 * `defaults` may replace some (adminRoles: the project's own admin role, projects.admin_role).
 */
export function readStoredSettings(json: string, defaults: Partial<ProjectSettings> = {}): ProjectSettings {
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    stored = {};
  }
  const settings: Record<string, unknown> = { ...defaultProjectSettings, ...defaults };
  if (stored !== null && typeof stored === 'object') {
    for (const name of projectSettingNames) {
      const value = (stored as Record<string, unknown>)[name];
      if (projectSettingDefinitions[name].isValid(value)) settings[name] = value;
    }
  }
  return settings as ProjectSettings;
}
